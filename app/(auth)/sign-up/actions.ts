"use server";

import { env } from "@/lib/env";
import { createAccount, MIN_PASSWORD_LENGTH } from "@/lib/auth/users";
import { invalidFieldsResult, refusalResult, SIGN_UP_CLOSED, signUpSchema, type SignUpResult } from "../_lib/sign-up";

/**
 * Creates a user with a new workspace, when sign-up is open (SIGNUP=open). The form then signs in with the same email
 * and password through next-auth. Next.js checks that server actions come from this site (Origin), which is the CSRF defence here.
 */
export async function signUpAction(input: {
  name: string;
  email: string;
  password: string;
  workspaceName: string;
}): Promise<SignUpResult> {
  if (env().SIGNUP !== "open") return { ok: false, message: SIGN_UP_CLOSED, fieldErrors: {} };
  const parsed = signUpSchema(MIN_PASSWORD_LENGTH).safeParse(input);
  if (!parsed.success) return invalidFieldsResult(parsed.error);
  try {
    const account = await createAccount(parsed.data);
    return { ok: true, workspaceId: account.workspaceId };
  } catch (error) {
    return refusalResult(error);
  }
}
