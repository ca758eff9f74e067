// What the readable report and the progress lines print comes partly from the server (messages,
// bodies, header values). A control character there (ESC starting a sequence that retitles the
// terminal or erases lines, a carriage return writing over a failure) must not reach a terminal
// raw: every C0 control but the newline and the tab, DEL, and every C1 control is written as a
// visible escape instead.

// One character class, no quantifier: a linear scan.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

const visible = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** The text with its control characters (newlines and tabs aside) written as `\xHH`. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, visible);
}
