"""Keyboard shortcuts of the review queue: a decision in one key press.

Streamlit has no keyboard API, so the Review view puts a small script of ours on the page
(`st.html` with `unsafe_allow_javascript`: nothing is downloaded, no component is installed).
It only presses the page's own controls, so every key does exactly what the click does
(the same callbacks, the same checks):

====================  ======================================================================
0 … 9 and .           where the marks are numbers: the mark typed ("1" is mark 1, "0.5" or
                      ".5" is mark 0.5; keys typed within a second make one number)
1 … 9                 where the marks are words: the first … ninth mark of the card's form
Enter                 save the chosen mark (the form's button; in the comment box too)
J, →                  next answer of the queue
K, ←                  previous answer
U                     undo my last decision
====================  ======================================================================

Keys typed into a text box, the answer picker or any other field are left alone, and the
script does nothing on a page without the review card (the Marks view, say).
"""

from __future__ import annotations

import re

import streamlit as st

#: The Streamlit keys of the buttons the script presses (each element gets a `st-key-<key>`
#: class on the page).
NEXT_KEY, PREVIOUS_KEY, UNDO_KEY = "review_next", "review_previous", "review_undo"

KEYS_HELP = ("Keys: Enter saves, J or → next answer, K or ← previous, U undoes your last "
             "decision.")

#: A mark the keys choose by its value (a number), not by its place.
_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def mark_keys_help(marks: list[str]) -> str:
    """What the number keys do on this form, said under its marks: numbers are typed as they
    are ("1" gives mark 1, where it gave the first mark, 0), words are chosen by their place."""
    if marks and all(_NUMBER.fullmatch(str(m).strip()) for m in marks):
        return "Type the mark to choose it (" + ", ".join(str(m).strip() for m in marks) + ")."
    return "Press " + ", ".join(f"{i} for {m}" for i, m in enumerate(marks[:9], 1)) + "."

_SCRIPT = """
<script>
(() => {
  // once per tab: the page's own element says the keys are on (a script of st.html may not
  // share the page's window object, and a second listener would press every key twice)
  const doc = document;
  if (doc.documentElement.dataset.graderKeys === 'on') return;
  const graderTyped = {text: '', at: 0};  // the number being typed (see the 0-9 keys)
  doc.documentElement.dataset.graderKeys = 'on';
  const typing = (el) => {
    if (!el) return false;
    if (el.isContentEditable || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
    if (el.tagName !== 'INPUT') return false;
    const kind = (el.getAttribute('type') || 'text').toLowerCase();
    return !['radio', 'checkbox', 'button', 'submit', 'range'].includes(kind);
  };
  const press = (key) => {
    // not a faded copy of an earlier run's button (Streamlit marks those data-stale while it
    // reruns; the Undo of the run before a save was disabled), and not disabled
    const button = [...doc.querySelectorAll('.st-key-' + key + ' button')].find(
      (b) => !b.disabled && !b.closest('[data-stale="true"]'));
    if (button) { button.click(); return true; }
    return false;
  };
  doc.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    if (!doc.querySelector('.st-key-%(next)s')) return;  // not on the review card
    if (typing(event.target)) return;  // Enter in the comment box submits the form itself
    const form = doc.querySelector('.st-key-%(next)s') &&
                 doc.querySelector('section.main [data-testid="stForm"], [data-testid="stMain"] [data-testid="stForm"]');
    const key = event.key;
    let done = false;
    if (/^[0-9.]$/.test(key) && form) {
      const labels = [...form.querySelectorAll('[role="radiogroup"] label')];
      const texts = labels.map((l) => l.innerText.trim());
      const numbers = texts.length > 0 && texts.every((t) => /^-?[0-9]+([.][0-9]+)?$/.test(t));
      if (numbers) {  // the mark typed, by its value; keys within a second make one number
        const now = Date.now();
        const value = (typed) => Number(typed.startsWith('.') ? '0' + typed : typed);
        let typed = (now - graderTyped.at < 1000 ? graderTyped.text : '') + key;
        let i = texts.findIndex((t) => Number(t) === value(typed));
        const start = typed.startsWith('.') ? '0' + typed : typed;
        const more = texts.some((t) => t.startsWith(start));  // a longer number may be coming
        if (i < 0 && !more) { typed = key; i = texts.findIndex((t) => Number(t) === value(typed)); }
        graderTyped.text = typed; graderTyped.at = now;
        if (i >= 0) labels[i].click();
        done = true;
      } else if (/^[1-9]$/.test(key) && labels[Number(key) - 1]) {  // words: by their place
        labels[Number(key) - 1].click(); done = true;
      }
    } else if (key === 'Enter' && form) {
      const submit = form.querySelector('[data-testid="stFormSubmitButton"] button, button[kind="primaryFormSubmit"], button[type="submit"]');
      if (submit) { submit.click(); done = true; }
    } else if (key === 'j' || key === 'J' || key === 'ArrowRight') {
      done = press('%(next)s');
    } else if (key === 'k' || key === 'K' || key === 'ArrowLeft') {
      done = press('%(previous)s');
    } else if (key === 'u' || key === 'U') {
      done = press('%(undo)s');
    }
    if (done) { event.preventDefault(); event.stopPropagation(); }
  }, true);
})();
</script>
""" % {"next": NEXT_KEY, "previous": PREVIOUS_KEY, "undo": UNDO_KEY}


def keyboard_shortcuts() -> None:
    """Put the shortcut script on the page (once per browser tab; it stays across reruns)."""
    st.html(_SCRIPT, unsafe_allow_javascript=True)
