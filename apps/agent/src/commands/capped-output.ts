/**
 * One output stream of a command, kept up to a number of bytes and only counted beyond it, so a
 * command that prints gigabytes costs the agent the cap and nothing more.
 */
export class CappedOutput {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.maxBytes - this.kept;
    if (room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    // A copy of the part only: a slice would keep the whole chunk alive.
    this.chunks.push(part === chunk ? chunk : Buffer.from(part));
    this.kept += part.length;
  }

  /**
   * The kept text, shortened further when needed so that it takes at most `jsonBudget` bytes as a
   * JSON string (binary output escapes up to six times its size), and how many bytes were left out.
   */
  text(jsonBudget: number): { text: string; cut: number } {
    const bytes = Buffer.concat(this.chunks, this.kept);
    const fits = (n: number) => Buffer.byteLength(JSON.stringify(bytes.subarray(0, n).toString('utf8'))) <= jsonBudget;
    let n = bytes.length;
    if (!fits(n)) {
      let low = 0;
      let high = n;
      while (low < high) {
        const mid = Math.ceil((low + high) / 2);
        if (fits(mid)) low = mid;
        else high = mid - 1;
      }
      n = low;
    }
    return { text: bytes.subarray(0, n).toString('utf8'), cut: this.total - n };
  }
}
