"""Is an answer a non-answer: empty, "I don't know", "help", "tell me the answer",
"this is boring", "jdkjgkfjg"?

A non-answer says nothing about the physics: it has no letters or digits, or its
content words are all words of asking, not knowing, filler or chatter (the built-in list
and the question file's `non_answers` phrases) or strings of letters that are no word
(not an English word nor a word of the question, with letter pairs English rarely has),
and it mentions no feature of the question (rubric concept, reference word, learned
term). A concept whose phrases are themselves chatter ("I don't know", listed by a
teacher) is not such a mention: it does not make a non-answer an answer.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from .spelling import english_words

NON_ANSWER_WORDS = frozenset({
    "know", "idea", "sure", "help", "clue", "answer", "tell", "understand", "dunno", "idk", "idc", "idek",
    "guess", "hint", "confuse", "confused", "question", "remember", "forget", "please", "ok",
    "okay", "lol", "hmm", "um", "uh", "yes", "yeah", "yep", "nope", "huh", "whatever",
    "stuff", "thing", "something", "mean", "give", "say", "think", "reason", "explain",
    "why", "what", "how", "care", "pass", "skip", "next", "sorry", "hi", "hello", "hey",
    "no", "one", "right", "correct", "wrong", "true", "false", "maybe", "probably", "test",
    "asdf", "dont", "because", "just", "like", "really", "good", "bad", "thanks", "thank",
    # asking for help, giving up, chatter about the lesson rather than the physics
    "all", "bore", "bored", "boring", "hate", "love", "stupid", "dumb", "hard", "easy",
    "difficult", "fun", "funny", "cool", "weird", "annoying", "tired", "ugh", "bye", "want",
    "need", "wanna", "gonna", "physics", "physic", "science", "teacher", "class", "homework", "exam",
    "quiz", "lesson", "lunch", "friend", "game", "blah", "nah", "whats", "anyone", "nothing",
    "sense", "make", "ask", "stuck", "lost", "again", "try", "tried", "work", "figure",
    "learn", "learnt", "teach", "taught", "study",
})

#: An unknown string of letters whose letter pairs average below this log-probability
#: (English words score about -2 to -3.2, keyboard runs like "jdkjgkfjg" below -4).
GIBBERISH_SCORE = -3.4
#: A formula is an answer, whatever its letters: "F × d", "W = mg", "v = d/t", "F x d".
FORMULA = re.compile(r"[A-Za-z0-9)]\s*[=×*÷^·]\s*[A-Za-z0-9(]"
                     r"|(?<![A-Za-z])[A-Za-z0-9]\s*[/x]\s*[A-Za-z0-9](?![A-Za-z])")
_ALPHABET = "abcdefghijklmnopqrstuvwxyz"
_START, _END = 26, 27


def is_non_answer(text: str, content: dict[str, bool], mentions_feature: bool,
                  extra_words: frozenset[str] = frozenset(),
                  question_words: frozenset[str] = frozenset(),
                  asked: frozenset[str] = frozenset()) -> bool:
    """`content`: the answer's content keys (see `reference.content_polarity`: said or
    denied); `extra_words`: the content words of the question's own non-answer phrases;
    `question_words`: words of the question, never gibberish; `asked`: the content words
    of the question's text, which an answer that says it does not know may repeat ("idk
    what a crowbar is") and still say nothing."""
    if not any(c.isalnum() for c in text):
        return True
    if FORMULA.search(text):
        return False
    if mentions_feature:
        return _not_knowing(content) and all(k in NON_ANSWER_WORDS or k in extra_words or k in asked
                                            for k in content)
    # A stray letter ("l", "x") is no answer unless it is a label or symbol the question
    # uses ("bulb A", "g"), which the caller counts in `mentions_feature`.
    return all(k in NON_ANSWER_WORDS or k in extra_words or (len(k) == 1 and k.isalpha())
               or (k not in question_words and is_gibberish(k)) for k in content)


def _not_knowing(content: dict[str, bool]) -> bool:
    """Does the answer say it does not know ("idk", "I don't know", "no idea", "not sure")?"""
    return any(k in content for k in _NOT_KNOWING) or any(
        content.get(k) is False for k in _NOT_KNOWN)


_NOT_KNOWING = ("idk", "dunno", "idea", "clue")  # "no idea", and "any idea?"
_NOT_KNOWN = ("know", "sure", "understand", "remember", "learn")  # said denied


def is_chatter(keys: tuple[str, ...], extra_words: frozenset[str] = frozenset()) -> bool:
    """Is a phrase's every content key a non-answer word ("I don't know": know)?"""
    return bool(keys) and all(k in NON_ANSWER_WORDS or k in extra_words for k in keys)


@lru_cache(maxsize=50_000)
def is_gibberish(word: str) -> bool:
    """Is `word` (a key: lower case, mended) letters typed at random rather than a word?
    Words of English and of the question are never gibberish; misspellings the speller
    could not mend mostly keep English letter pairs ("voltige")."""
    if len(word) < 3 or not word.isascii() or not word.isalpha() or word in english_words():
        return False
    if len(word) == 3:  # too short for letter pairs: "jkl", "sdf", "thx" have no vowel at all
        return not any(c in "aeiouy" for c in word)
    if len(set(word)) <= 2:  # "gggggg", "hghghg"
        return True
    logp = _letter_pairs()
    codes = [_START] + [ord(c) - 97 for c in word] + [_END]
    return float(np.mean(logp[codes[:-1], codes[1:]])) < GIBBERISH_SCORE


@lru_cache(maxsize=1)
def _letter_pairs() -> np.ndarray:
    """log P(next letter | letter) over the English words of the lookup table, with word
    start and end as letters of their own (a 28 x 28 table, counted with numpy)."""
    words = [w for w in english_words() if w.isascii() and w.isalpha()]
    data = np.frombuffer(("^" + "$^".join(words) + "$").encode(), dtype=np.uint8)
    code = np.full(256, _END, dtype=np.int64)
    code[ord("^")] = _START
    code[np.frombuffer(_ALPHABET.encode(), dtype=np.uint8)] = np.arange(26)
    x = code[data]
    keep = x[:-1] != _END  # not across two words
    counts = np.bincount((x[:-1] * 28 + x[1:])[keep], minlength=28 * 28).reshape(28, 28) + 0.5
    return np.log(counts / counts.sum(axis=1, keepdims=True))
