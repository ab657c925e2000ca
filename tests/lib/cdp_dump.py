#!/usr/bin/env python3
# Open a page in headless Chromium at a phone's width, which --window-size
# cannot give (headless windows are at least 500 px wide): the DevTools
# protocol over --remote-debugging-pipe (no network port, no websocket
# library) emulates the device's metrics, loads the page, waits for the load
# event and a quiet moment, then writes the DOM (as --dump-dom would) and a
# PNG screenshot.
#
# cdp_dump.py CHROMIUM PROFILE_DIR URL WIDTH HEIGHT DOM_OUT PNG_OUT
import base64, json, os, subprocess, sys, time

chromium, profile, url, width, height, dom_out, png_out = sys.argv[1:8]
width, height = int(width), int(height)
to_chrome_r, to_chrome_w = os.pipe()
from_chrome_r, from_chrome_w = os.pipe()


def child_fds():
    os.dup2(to_chrome_r, 3)
    os.dup2(from_chrome_w, 4)


proc = subprocess.Popen(
    [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
     "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
     "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"],
    pass_fds=(3, 4), preexec_fn=child_fds, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(to_chrome_r)
os.close(from_chrome_w)
out = os.fdopen(to_chrome_w, "wb", buffering=0)
inp = os.fdopen(from_chrome_r, "rb", buffering=0)
buf = b""
next_id = 0
events = []
deadline = time.time() + 60


def read_msg():
    global buf
    while b"\0" not in buf:
        if time.time() > deadline:
            raise SystemExit("cdp_dump: timed out")
        chunk = inp.read(65536)
        if not chunk:
            raise SystemExit("cdp_dump: chromium closed the pipe")
        buf += chunk
    msg, buf = buf.split(b"\0", 1)
    return json.loads(msg)


def call(method, params=None, session=None):
    global next_id
    next_id += 1
    m = {"id": next_id, "method": method, "params": params or {}}
    if session:
        m["sessionId"] = session
    out.write(json.dumps(m).encode() + b"\0")
    while True:
        r = read_msg()
        if r.get("id") == next_id:
            if "error" in r:
                raise SystemExit("cdp_dump: %s: %s" % (method, r["error"]))
            return r.get("result", {})
        events.append(r)


def wait_event(name, session):
    while True:
        for i, e in enumerate(events):
            if e.get("method") == name and e.get("sessionId") == session:
                del events[i]
                return e
        events.append(read_msg())


try:
    target = call("Target.createTarget", {"url": "about:blank"})["targetId"]
    s = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    call("Page.enable", session=s)
    call("Emulation.setDeviceMetricsOverride",
         {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True}, session=s)
    call("Page.navigate", {"url": url}, session=s)
    wait_event("Page.loadEventFired", s)
    time.sleep(0.3)
    r = call("Runtime.evaluate", {"expression": "document.documentElement.outerHTML", "returnByValue": True},
             session=s)
    with open(dom_out, "w", encoding="utf-8") as f:
        f.write(r["result"]["value"])
    shot = call("Page.captureScreenshot", {"format": "png"}, session=s)
    with open(png_out, "wb") as f:
        f.write(base64.b64decode(shot["data"]))
    call("Browser.close")
finally:
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
