// The limit for `npm run bench`: a bare Node.js HTTP server that answers every request with the
// bytes the real site gave for it (status, content type, location, body), read from a JSON file.
import fs from "node:fs";
import http from "node:http";

const [file, port] = process.argv.slice(2);
const answers = JSON.parse(fs.readFileSync(file, "utf8"));
for (const answer of Object.values(answers)) answer.body = Buffer.from(answer.body, "base64");

const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    const encoding = /\bbr\b/.test(req.headers["accept-encoding"] ?? "") ? "br" : "identity";
    const who = req.headers.cookie ? "member" : "visitor";
    const answer = answers[`${req.method} ${req.url} ${who} ${encoding}`];
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(port), "127.0.0.1", () => process.send?.("ready"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
