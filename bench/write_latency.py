"""Write in Chromium: "Next word" → the head view drawn, ÷ (a bare step + a bare rerun); kB a word.

What a person waits for on the Write page, in a real headless Chromium: "Next word" → the new token
and the head view drawn with it, against a bare step and a bare Streamlit rerun, and the bytes sent.

    python -m bench write_latency [--words 6] [--contexts 9 1024] [--no-ahead]

Starts harness/trivial_app.py and the real app in one run. Per context (the default prompt, about 9
tokens, or a prompt of that many tokens), `--words` times, interleaved so machine noise hits all alike:

  (a) floor   trivial app: Enter in the text box → the written text appears (a bare Streamlit rerun);
  (s) step    in this process, SmolLM2 loaded bare with transformers: one token fed with the KV cache at
              the same context, softmax and argmax (the model's own cost of a word);
  (w) word    Write: mousedown on "Next word" → the head view drawn with one more row;
  (kb)        bytes the browser received over the websocket for that word.

Prints medians and the ratio (w) ÷ ((a) + (s)) (issue 23's budget: ≤ 2) and kB per word (≤ 50 KB).

Once a word is drawn the app reads the next in the background (ATTENTION_WRITE_AHEAD, on by default), so
the click finds the model's work done: half a second passes between a word drawn and the next click (a
person reads the word first), and the floor is measured after that pause, not while the model reads. With
--no-ahead the app reads each word at the click: the wait with the model's step in it.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import urllib.parse

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.browser_latency import TIMEOUT_MS, floor_once  # noqa: E402
from bench.cli import bench_parser  # noqa: E402
from harness.app_server import CHROMIUM, CHROMIUM_ARGS, wait_idle  # noqa: E402
from harness.app_server import streamlit_process as app_server  # noqa: E402
from harness.page_timing import FIND_VIEW, RESET_T0, TRIVIAL_APP, elapsed_ms, timed_page  # noqa: E402

TEXT = ("The black cat drank the milk while a small dog watched from under the old wooden table near the "
        "open window of a quiet house in the green hills. ")

# The head view drawn with `n` query rows: the new word is in it.
VIEW_ROWS = """
(n) => {
  if (typeof window.__benchT0 !== 'number') return false;
  if (document.querySelector('[data-testid="stException"]')) return 'APP_ERROR';
""" + FIND_VIEW + """
  const v = findView();
  if (!v || v.p.query_tokens.length !== n) return false;
  return performance.now() - window.__benchT0;
}
"""


def bare_steps(tokens: int, words: int) -> tuple[float, str]:
    """Median ms of a bare KV-cache step at `tokens` of context, and the prompt that has that many."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from attention.lm import smollm2

    folder = smollm2.folder()
    tok = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32).eval()
    ids = tok(TEXT * (tokens // 20 + 2))["input_ids"][:tokens] if tokens > 9 else None
    prompt = tok.decode(ids) if ids else "The black cat drank the milk because it was"
    ids = torch.tensor([tok(prompt)["input_ids"]])
    times = []
    with torch.inference_mode():
        out = model(ids, use_cache=True)
        for _ in range(words):
            nxt = out.logits[0, -1].softmax(-1).argmax().view(1, 1)
            t0 = time.perf_counter()
            out = model(nxt, past_key_values=out.past_key_values, use_cache=True)
            out.logits[0, -1].softmax(-1).argmax()
            times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times), prompt


READ_S = 0.5  # between a word drawn and the next click: a person reads the word; the model reads the next


def run(words: int, contexts: list[int], ahead: bool = True) -> None:
    env = {"ATTENTION_WRITE_AHEAD": "1" if ahead else "0"}
    with app_server(TRIVIAL_APP) as trivial, app_server(extra_env=env) as app, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            floor_page = timed_page(browser, trivial.url)
            for tokens in contexts:
                step_ms, prompt = bare_steps(tokens, words)
                page = timed_page(browser, f"{app.url}/write?prompt={urllib.parse.quote(prompt)}")
                received: list[int] = []
                page.on("websocket", lambda ws: ws.on("framereceived", lambda data: received.append(
                    len(data) if isinstance(data, (bytes, str)) else 0)))
                page.reload()
                wait_idle(page, TIMEOUT_MS)
                page.wait_for_selector("text=Next word", timeout=TIMEOUT_MS)
                wait_idle(page)
                n = page.evaluate("() => { " + FIND_VIEW + " return findView().p.query_tokens.length; }")
                floors, word_ms, kbs = [], [], []
                for i in range(words + 1):
                    time.sleep(READ_S)
                    floor = floor_once(floor_page, f"{tokens} tokens, word {i}")
                    received.clear()
                    # the button found before the clock starts: finding it by role reads the whole page's
                    # accessibility tree (the head view's table too), which a person's click does not wait for
                    box = page.get_by_role("button", name="Next word").bounding_box()
                    page.evaluate(RESET_T0)
                    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                    n += 1
                    ms = elapsed_ms(page.wait_for_function(VIEW_ROWS, arg=n, polling="raf",
                                                           timeout=TIMEOUT_MS).json_value())
                    wait_idle(page)
                    if i:  # the first word warms up, uncounted
                        floors.append(floor)
                        word_ms.append(ms)
                        kbs.append(sum(received) / 1024)
                a, w, kb = statistics.median(floors), statistics.median(word_ms), statistics.median(kbs)
                print(f"context {n - words - 1:>5} tokens: floor {a:7.1f} ms  bare step {step_ms:7.1f} ms  "
                      f"Next word -> drawn {w:7.1f} ms  ratio {w / (a + step_ms):5.2f} (budget 2)  "
                      f"{kb:7.1f} kB per word (budget 50)", flush=True)
                page.close()
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__, results=False)
    ap.add_argument("--words", type=int, default=6)
    ap.add_argument("--contexts", type=int, nargs="*", default=[9, 1024])
    ap.add_argument("--no-ahead", action="store_true", help="the app reads each word at the click")
    args = ap.parse_args(argv)
    run(args.words, args.contexts, ahead=not args.no_ahead)
    return 0


if __name__ == "__main__":
    sys.exit(main())
