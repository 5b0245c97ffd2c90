-- Rate limits shared by every instance (lib/ratelimit): requests per bucket and fixed window. UNLOGGED: the counts
-- live for a window or two, so they skip the write-ahead log; a crash that empties the table only forgets a window.

CREATE UNLOGGED TABLE "rate_limit_windows" (
    "bucket" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL,
    CONSTRAINT "rate_limit_windows_pkey" PRIMARY KEY ("bucket", "window_start")
);

CREATE INDEX "rate_limit_windows_window_start_idx" ON "rate_limit_windows"("window_start");
