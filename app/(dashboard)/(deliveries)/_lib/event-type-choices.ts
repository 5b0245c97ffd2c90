/**
 * The event types the filter bar offers: those the API listed for the endpoint (or the workspace), those of the
 * deliveries on screen (some may have arrived after the list was read), and the selected one even when neither has
 * it (a shared link, a type past the listed first ones), each once, in alphabetical order.
 */
export function eventTypeChoices(
  listed: readonly string[],
  shown: Iterable<string | null>,
  selected: string,
): string[] {
  const choices = new Set(listed);
  for (const type of shown) if (type !== null) choices.add(type);
  if (selected) choices.add(selected);
  return [...choices].sort((a, b) => a.localeCompare(b, "en"));
}
