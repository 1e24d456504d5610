"""Is an answer a non-answer: empty, "I don't know", "help", "tell me the answer"?

A non-answer says nothing about the physics: it has no letters or digits, or its
content words are all words of asking, not knowing or filler, and it mentions no
feature of the question (rubric concept, reference word, learned term).
"""

from __future__ import annotations

NON_ANSWER_WORDS = frozenset({
    "know", "idea", "sure", "help", "clue", "answer", "tell", "understand", "dunno", "idk",
    "guess", "hint", "confuse", "confused", "question", "remember", "forget", "please", "ok",
    "okay", "lol", "hmm", "um", "uh", "yes", "yeah", "yep", "nope", "huh", "whatever",
    "stuff", "thing", "something", "mean", "give", "say", "think", "reason", "explain",
    "why", "what", "how", "care", "pass", "skip", "next", "sorry", "hi", "hello", "hey",
    "no", "one", "right", "correct", "wrong", "true", "false", "maybe", "probably", "test",
    "asdf", "dont", "because", "just", "like", "really", "good", "bad", "thanks", "thank",
})


def is_non_answer(text: str, content: dict[str, bool], mentions_feature: bool) -> bool:
    """`content`: the answer's content keys (see `reference.content_polarity`)."""
    if not any(c.isalnum() for c in text):
        return True
    if mentions_feature:
        return False
    # A stray letter ("l", "x") is no answer unless it is a label or symbol the question
    # uses ("bulb A", "g"), which the caller counts in `mentions_feature`.
    return all(k in NON_ANSWER_WORDS or (len(k) == 1 and k.isalpha()) for k in content)
