#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""imds-standin.py - a small stand-in for the EC2 instance metadata service (IMDSv2), for tests.

usage: imds-standin.py ADDR PORT FACTS_JSON LOG

Answers PUT /latest/api/token (only with the X-aws-ec2-metadata-token-ttl-seconds
header, as IMDSv2 does) with a fresh token, and GET /latest/meta-data/PATH with
FACTS_JSON[PATH] (an object of metadata path -> text) when the request carries that
token in X-aws-ec2-metadata-token; 401 without it, 404 for paths it does not know.
Every request is appended to LOG as "METHOD PATH STATUS". Writes LOG.ready when
listening. Runs until killed.
"""
import http.server
import json
import secrets
import sys


def main():
    addr, port, facts_path, log_path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    with open(facts_path, encoding="utf-8") as f:
        facts = json.load(f)
    tokens = set()

    class Handler(http.server.BaseHTTPRequestHandler):
        def answer(self, status, body=""):
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            with open(log_path, "a", encoding="utf-8") as log:
                log.write(f"{self.command} {self.path} {status}\n")

        def do_PUT(self):
            if self.path != "/latest/api/token":
                return self.answer(404)
            if not self.headers.get("X-aws-ec2-metadata-token-ttl-seconds"):
                return self.answer(400)
            token = secrets.token_urlsafe(24)
            tokens.add(token)
            return self.answer(200, token)

        def do_GET(self):
            if self.headers.get("X-aws-ec2-metadata-token") not in tokens:
                return self.answer(401)
            prefix = "/latest/meta-data/"
            key = self.path[len(prefix):] if self.path.startswith(prefix) else None
            if key not in facts:
                return self.answer(404)
            return self.answer(200, facts[key])

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer((addr, port), Handler)
    with open(log_path + ".ready", "w", encoding="utf-8") as ready:
        ready.write("ok\n")
    server.serve_forever()


if __name__ == "__main__":
    main()
