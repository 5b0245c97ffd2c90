"use client";

import { useEffect, useState } from "react";
import { formatExactTime, formatRelativeTime, relativeTimeRefreshMs } from "../_lib/format";

/** "3 minutes ago", kept current; the exact time is in the tooltip and in `dateTime` for assistive technology. */
export function RelativeTime({ iso }: { iso: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setTimeout(() => setNow(Date.now()), relativeTimeRefreshMs(iso, now));
    return () => clearTimeout(timer);
  }, [iso, now]);
  return (
    <time dateTime={iso} title={formatExactTime(iso)}>
      {formatRelativeTime(iso, now)}
    </time>
  );
}
