import { route } from "@/lib/api/route";
import { findUser } from "@/lib/auth/users";
import { getCurrentUserContract } from "@/lib/contracts/members";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/errors";

// GET /v1/me — the signed-in user, whether they operate the server, and the sign-up policy.
export const GET = route(getCurrentUserContract, async ({ auth }) => {
  const user = auth.userId ? await findUser(auth.userId) : null;
  if (!user) throw new ApiError("unauthorized", "Sign in again.");
  return {
    success: true as const,
    data: {
      user: { id: user.id, email: user.email, name: user.name, operator: user.isOperator },
      signUp: env().SIGNUP,
    },
  };
});
