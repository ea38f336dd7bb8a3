// SPDX-License-Identifier: GPL-3.0-or-later
// The request loop of the engine scripts of this folder (tests/engines/node_child.h is the other side): one JSON
// request a line on stdin, {"op": NAME, ...}, answered by ops[NAME](request) as one JSON line on stdout, or by
// {"error": message} where the op is unknown or throws. Returns when stdin closes.
import { createInterface } from 'node:readline';

export async function serve(ops) {
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    let answer;
    try {
      const q = JSON.parse(line);
      if (!ops[q.op]) throw new Error(`unknown op ${q.op}`);
      answer = ops[q.op](q);
    } catch (err) {
      answer = { error: String(err && err.message ? err.message : err) };
    }
    process.stdout.write(JSON.stringify(answer) + '\n');
  }
}
