"""Typical mistakes are located at the mistake, in a teacher's words (issue 16)."""

from __future__ import annotations

import pytest

from knowledge import check_question_text

HEAD = 'id: q\nquestion: Why?\nmarks: ["0", "1"]\nreference_answers:\n  - There is a gap.\nconcepts:\n  gap: [gap]\n'


@pytest.mark.parametrize("text,line,column,words", [
    # an unclosed quote in a 5-line file was reported at 6:1, where the file ends
    ("id: q\nquestion: 'Why does\nmarks: [\"0\", \"1\"]\nreference_answers:\n  - There is a gap.\n",
     2, 11, "the quote ' opened here is never closed"),
    ('id: q\nquestion: "Why does the bulb not light?\nmarks: ["0", "1"]\nreference_answers:\n  - a gap\n',
     2, 11, 'the quote " opened here is never closed'),
    # a missing colon was reported one line late
    ("id: q\nquestion Why does the bulb not light?\nmarks: [\"0\", \"1\"]\nreference_answers:\n  - a gap\n",
     2, 1, "no ':' after its name"),
    # a wrong mark in an ASP rule was reported at the rule's start
    (HEAD + "initial_rules:\n  - \"mark(X,'2') :- concept(X,gap,present).\"\n", 9, 13, "mark '2' is not one of the marks"),
    # an unclosed parenthesis was reported at the final period
    (HEAD + "initial_rules:\n  - \"mark(X,'1') :- concept(X,gap,present.\"\n", 9, 28,
     "the parenthesis opened here after concept is never closed"),
    ('id: q\nquestion: Why?\nmarks: ["0", "1"\nreference_answers:\n  - a gap\n', 3, 8, "the list opened here is not closed"),
    ("id: q\nquestion: Why?\n\tmarks: [\"0\", \"1\"]\n", 3, 1, "a tab character"),
    ("id: q\n  question: x\n", 2, 3, "indented more than the line above"),
])
def test_the_mistake_is_pointed_at(text, line, column, words):
    problems = check_question_text(text, "q.yaml")
    assert [(p.line, p.column) for p in problems if words in p.message] == [(line, column)], problems
    assert not any("while scanning" in p.message or "while parsing" in p.message for p in problems)


def test_a_quoted_value_that_closes_on_its_line_is_not_blamed():
    text = 'id: q\nquestion: "Why does it not light?"\nmarks: ["0", "1"]\nreference_answers:\n  - a gap\n - x\n'
    problems = check_question_text(text, "q.yaml")
    assert problems and not any("quote" in p.message for p in problems)


QUANTITY = HEAD.replace("concepts:\n  gap: [gap]\n", "concepts:\n  downward: [down]\n") + \
    "quantities:\n  acceleration:\n    value: 9.8\n    unit: m/s^2\n"


def test_notation_options_are_read_and_kept_in_model_files():
    from knowledge import question_from_dict, question_to_dict
    from knowledge.question_file import read_question_text

    text = QUANTITY + "    bare_number: true\n    symbol: g\n    negative_means: downward\n"
    assert check_question_text(text, "q.yaml") == []
    question = read_question_text(text, "q.yaml")[0]
    q = question.quantities[0]
    assert (q.bare_number, q.symbol, q.negative_means) == (True, "g", "downward")
    assert question_from_dict(question_to_dict(question)).quantities[0] == q
    plain = question_to_dict(read_question_text(QUANTITY, "q.yaml")[0])["quantities"][0]
    assert "symbol" not in plain and "bare_number" not in plain  # older readers see nothing new


@pytest.mark.parametrize("option,words", [
    ("bare_number: yes please", "bare_number of quantity 'acceleration' must be true or false"),
    ("symbol: 9", "symbol of quantity 'acceleration' must be a short name"),
    ("negative_means: downwards", "names no concept of this question: 'downwards', did you mean 'downward'?"),
])
def test_bad_notation_options_are_located(option, words):
    problems = check_question_text(QUANTITY + f"    {option}\n", "q.yaml")
    assert [(p.line, p.column) for p in problems if words in p.message] == [(12, 5 + len(option.split(':')[0]) + 2)]


def test_words_yaml_reads_as_true_false_or_numbers_are_phrases_as_written():
    from knowledge.question_io import read_question_text
    text = ('id: q\nquestion: Is the lamp lit?\nreference_answers: ["The lamp is off."]\n'
            'concepts:\n  lamp_off: [off, "not lit", No]\n  lamp_on:\n    phrases: [On, yes]\n'
            '  pitch:\n    phrases: 1e3\n')
    assert not check_question_text(text, "q.yaml")
    q = read_question_text(text, "q.yaml")[0]
    assert [c.phrases for c in q.concepts] == [("off", "not lit", "No"), ("On", "yes"), ("1e3",)]


def test_an_empty_phrase_is_pointed_at_itself_not_at_its_list():
    text = HEAD.replace("gap: [gap]", "gap:\n    - gap\n    - off\n    - ~\n")
    problems = check_question_text(text, "q.yaml")
    assert [(p.line, p.column) for p in problems] == [(10, 7)], problems


def test_a_question_file_names_its_own_non_answer_phrases():
    from knowledge import question_from_dict, question_to_dict
    from knowledge.question_io import read_question_text
    text = HEAD + "non_answers: [see my notes, no, ask my partner]\n"
    assert not check_question_text(text, "q.yaml")
    q = read_question_text(text, "q.yaml")[0]
    assert q.non_answers == ("see my notes", "no", "ask my partner")
    assert question_from_dict(question_to_dict(q)).non_answers == q.non_answers
    bad = check_question_text(HEAD + "non_answers: [see my notes, \"\"]\n", "q.yaml")
    assert [(p.line, p.column) for p in bad] == [(8, 29)], bad


def test_a_question_file_lists_its_expected_words():
    from knowledge import question_from_dict, question_to_dict
    from knowledge.question_io import read_question_text
    q = read_question_text(HEAD + "expected_words: [gap, path, on]\n", "q.yaml")[0]
    assert q.expected_words == ("gap", "path", "on")
    assert question_from_dict(question_to_dict(q)).expected_words == q.expected_words
