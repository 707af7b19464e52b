/** A password could not be read (no terminal and no --password-stdin, empty, mismatch, Ctrl-C). */
class PasswordInputError extends Error {}

/** Reads all of stdin as the password, dropping one trailing newline (`echo "$PW" | … --password-stdin`). */
export async function passwordFromStdin(stdin: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
  const password = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (!password) throw new PasswordInputError('--password-stdin: stdin was empty');
  return password;
}

/** Asks twice on the terminal without echoing what is typed; refuses when stdin is not a terminal. */
export async function promptPassword(stdin: NodeJS.ReadStream = process.stdin, out: NodeJS.WritableStream = process.stderr): Promise<string> {
  if (!stdin.isTTY) {
    throw new PasswordInputError(
      'no terminal to prompt for the password: pipe it in with --password-stdin (e.g. `printf %s "$PW" | switchboard user create … --password-stdin`)',
    );
  }
  // Echo stays off from before the first prompt shows until after the second answer: nothing typed is ever shown.
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  try {
    const first = await readHidden(stdin, out, 'Password: ', '');
    if (!first.line) throw new PasswordInputError('empty password');
    if ((await readHidden(stdin, out, 'Repeat password: ', first.rest)).line !== first.line) throw new PasswordInputError('the passwords did not match');
    return first.line;
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
  }
}

/**
 * One line from a terminal in raw mode; backspace edits, Ctrl-C or Ctrl-D aborts. What was typed after the Enter
 * (a pasted second line) comes back as rest, for the next prompt.
 */
function readHidden(stdin: NodeJS.ReadStream, out: NodeJS.WritableStream, prompt: string, carry: string): Promise<{ line: string; rest: string }> {
  out.write(prompt);
  return new Promise((resolve, reject) => {
    let line = '';
    const done = (result: Error | { line: string; rest: string }) => {
      stdin.off('data', onData);
      out.write('\n');
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onData = (text: string): boolean => {
      const chars = [...text];
      for (const [i, ch] of chars.entries()) {
        if (ch === '\r' || ch === '\n') {
          done({
            line,
            rest: chars
              .slice(i + 1)
              .join('')
              .replace(/^\n/, ''),
          });
          return true;
        }
        if (ch === '\u0003' || (ch === '\u0004' && !line)) {
          done(new PasswordInputError('cancelled'));
          return true;
        }
        if (ch === '\u007f' || ch === '\b') line = [...line].slice(0, -1).join('');
        else if (ch >= ' ') line += ch;
      }
      return false;
    };
    if (carry && onData(carry)) return;
    stdin.on('data', onData);
    stdin.resume();
  });
}
