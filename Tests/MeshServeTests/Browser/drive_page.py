#!/usr/bin/env python3
"""Drives headless Chromium through the DevTools protocol over a pipe (--remote-debugging-pipe):
no WebDriver, no websocket library, only Python's standard library.

    drive_page.py --chromium PATH --url URL --steps steps.json --out DIR

steps.json is a list of {"name": ..., "eval": "JS expression"} (the value of the expression,
awaited when it is a Promise, is recorded under its name) and {"screenshot": "file.png"} (written
to DIR). Prints one JSON object: {"results": {name: value or {"error": ...}}, "console": [...]}.
Every wait is bounded; Chromium is always stopped and its profile removed.
"""
import argparse
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

COMMAND_TIMEOUT = 90.0
READY_TIMEOUT = 90.0


class Browser:
    def __init__(self, chromium, width, height):
        self.profile = tempfile.mkdtemp(prefix="meshgeo-chromium-")
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def child_fds():
            # Chromium reads commands on fd 3 and writes answers on fd 4.
            a = fcntl.fcntl(to_browser_read, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_browser_write, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        flags = [
            chromium, "--headless=new", "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--disable-sync", "--disable-dev-shm-usage",
            "--mute-audio", "--hide-scrollbars", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
            "--ignore-gpu-blocklist", f"--window-size={width},{height}", f"--user-data-dir={self.profile}", "about:blank",
        ]
        if os.geteuid() == 0:
            flags.insert(1, "--no-sandbox")
        self.process = subprocess.Popen(
            flags, preexec_fn=child_fds, close_fds=False, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.console = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        while data:
            written = os.write(self.to_browser, data)
            data = data[written:]
        return self.next_id

    def read_message(self, deadline):
        while b"\0" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no answer from Chromium in time")
            ready, _, _ = select.select([self.from_browser], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None, timeout=COMMAND_TIMEOUT):
        wanted = self.send(method, params, session)
        deadline = time.monotonic() + timeout
        while True:
            message = self.read_message(deadline)
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.note_event(message)

    def note_event(self, message):
        method = message.get("method")
        params = message.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.console.append(f"console.{params.get('type')}: {text}")
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            self.console.append("exception: " + str(details.get("exception", {}).get("description", details.get("text"))))

    def close(self):
        try:
            if self.process.poll() is None:
                try:
                    self.send("Browser.close")
                    self.process.wait(timeout=5)
                except Exception:
                    pass
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait(timeout=10)
            for fd in (self.to_browser, self.from_browser):
                try:
                    os.close(fd)
                except OSError:
                    pass
            shutil.rmtree(self.profile, ignore_errors=True)


def evaluate(browser, session, expression):
    result = browser.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True}, session)
    if "exceptionDetails" in result:
        details = result["exceptionDetails"]
        description = details.get("exception", {}).get("description") or details.get("exception", {}).get("value") or details.get("text")
        return {"error": str(description)}
    return result.get("result", {}).get("value")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--steps", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--width", type=int, default=1100)
    parser.add_argument("--height", type=int, default=720)
    args = parser.parse_args()
    with open(args.steps) as f:
        steps = json.load(f)
    os.makedirs(args.out, exist_ok=True)
    results = {}
    browser = Browser(args.chromium, args.width, args.height)
    try:
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        browser.call("Runtime.enable", session=session)
        browser.call("Page.enable", session=session)
        browser.call("Emulation.setDeviceMetricsOverride",
                     {"width": args.width, "height": args.height, "deviceScaleFactor": 1, "mobile": False}, session)
        browser.call("Page.navigate", {"url": args.url}, session)
        deadline = time.monotonic() + READY_TIMEOUT
        while evaluate(browser, session, "!!(window.meshgeo && window.meshgeo.ready)") is not True:
            if time.monotonic() > deadline:
                raise TimeoutError("the page did not become ready")
            time.sleep(0.2)
        for step in steps:
            if "screenshot" in step:
                shot = browser.call("Page.captureScreenshot", {"format": "png"}, session)
                path = os.path.join(args.out, step["screenshot"])
                with open(path, "wb") as f:
                    f.write(base64.b64decode(shot["data"]))
                results[step["screenshot"]] = path
            else:
                results[step["name"]] = evaluate(browser, session, step["eval"])
    except Exception as error:  # reported to the caller, which fails the test with it
        results["driver error"] = {"error": f"{type(error).__name__}: {error}"}
    finally:
        browser.close()
    json.dump({"results": results, "console": browser.console}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
