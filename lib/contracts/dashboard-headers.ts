/** Sent by the dashboard's client with every request; cross-site pages cannot add it, so sessions need it (CSRF). */
export const DASHBOARD_HEADER = "x-signalbox-dashboard";
/** The workspace a signed-in user acts in; defaults to their first. */
export const WORKSPACE_HEADER = "x-signalbox-workspace";
