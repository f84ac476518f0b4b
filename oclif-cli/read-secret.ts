/** Read a secret from a pipe, or from a terminal without echoing it. */
export async function readSecret(input: NodeJS.ReadStream, prompt: NodeJS.WriteStream, question: string): Promise<string> {
  if (!input.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of input) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks).toString("utf8");
  }
  prompt.write(question);
  input.setRawMode(true);
  input.resume();
  input.setEncoding("utf8");
  return new Promise((resolve, reject) => {
    let secret = "";
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n" || char === "\u0004") return done();
        if (char === "\u0003") return done(new Error("Cancelled"));
        if (char === "\u007f") secret = secret.slice(0, -1);
        else secret += char;
      }
    };
    const done = (error?: Error) => {
      input.off("data", onData);
      input.setRawMode(false);
      input.pause();
      prompt.write("\n");
      if (error) reject(error);
      else resolve(secret);
    };
    input.on("data", onData);
  });
}
