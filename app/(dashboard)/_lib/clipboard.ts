/**
 * Copies text. The Clipboard API exists only in secure contexts (https, localhost); a self-hosted dashboard is often
 * opened over plain http on a LAN address, so fall back to selecting a hidden textarea. `container` is where that
 * textarea goes: inside an open modal dialog the rest of the page is inert and cannot be selected.
 */
export async function copyText(text: string, container?: HTMLElement): Promise<void> {
  if (window.isSecureContext && navigator.clipboard) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const textarea = document.createElement("textarea");
  textarea.value = text;
  textarea.setAttribute("readonly", "");
  textarea.style.position = "fixed";
  textarea.style.opacity = "0";
  (container ?? document.body).appendChild(textarea);
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  textarea.select();
  try {
    if (!document.execCommand("copy")) throw new Error("The browser refused to copy.");
  } finally {
    textarea.remove();
    previous?.focus();
  }
}
