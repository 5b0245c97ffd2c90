import type { Contract } from "./contract";
import { getHealthContract, getOpenApiDocumentContract } from "./system";
import { getWorkspaceContract } from "./workspace";

/** Every operation of the API. The OpenAPI document and the route-coverage test are built from this list. */
export const contracts: readonly Contract[] = [getWorkspaceContract, getOpenApiDocumentContract, getHealthContract];
