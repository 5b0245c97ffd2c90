// The package ships no types: it is a CommonJS array of lower-case local parts such as "info" or "sales".
declare module "role-based-email-addresses" {
  const roleLocalParts: string[];
  export default roleLocalParts;
}
