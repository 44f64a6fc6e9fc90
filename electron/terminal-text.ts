// Text from the model, the memory or the API, made safe to print on a terminal. A terminal obeys control
// sequences in what it prints: ESC starts CSI (move the cursor, erase lines: hide what came before, e.g.
// above an approval prompt) and OSC (52 writes the clipboard, 8 makes links); C1 controls (U+0080-U+009F)
// are the same sequences in one byte for some terminals; a carriage return overwrites the line; bidi
// overrides make text read differently from what it is. Each is shown as a visible escape (\x1b, \u202e)
// instead; newlines and tabs stay as they are.

// C0 controls except \t and \n, DEL, C1 controls, and the bidi embeddings, overrides, isolates and marks.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function visible(text: string): string {
  return text.replace(UNSAFE, (ch) => {
    const code = ch.charCodeAt(0);
    return code < 0x100
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
