import ui from "./ui.module.css";

/**
 * A form's error that belongs to no single field. Focusable (tabIndex -1) so the form can move focus to it, and a
 * live `alert` so screen readers announce it. Renders nothing without a message.
 */
export function FormAlert({ message }: { message: string | undefined | null }) {
  if (!message) return null;
  return (
    <p role="alert" tabIndex={-1} className={ui.alert}>
      {message}
    </p>
  );
}
