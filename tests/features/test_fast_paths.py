"""The extractor's fast paths (issue 17) give what the plain, token-by-token code gives.

Each fast path is compared with a plain version written here the obvious way, on generated
answers and on edge cases (labels, empty answers, unicode, numbers with and without units).
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from features import quantities as qty
from features.bench import REFERENCE_QUESTION, RUBRIC_QUESTION, generate_answers
from features.lexicon import is_label, read_tokens
from features.nlp import FALLBACK, LEMMA_OVERRIDES, load_nlp
from features.spelling import Speller
from features.text import normalize

EDGE_CASES = ["", " ", "A", "bulb A and B are lit", "A bulb is lit. A and C", "I don't know",
              "it isn't connected, cuz the wire's off", "9.8 m/s^2 down", "-0 m/s^2", "0 N",
              "3×10⁸ m/s", "<p>a = 9.8 m/s<sup>2</sup></p>", "ça ne marche pas 😀", "x", "g",
              "the Bulbs DOES not light", "nine point eight metres per second squared",
              "10 N, 20 N and 9.81 ms-2 (not 9.8 m/s)", "\t\n"]


def _answers() -> list[str]:
    return (EDGE_CASES + generate_answers(RUBRIC_QUESTION, 300, seed=3)
            + generate_answers(REFERENCE_QUESTION, 300, seed=4))


@pytest.fixture(scope="module")
def nlp():
    return load_nlp(FALLBACK)


def test_the_array_lemmatizer_gives_the_lemma_of_each_token(nlp):
    lemmatizer = nlp.get_pipe("lemmatizer")
    table = lemmatizer.lookups.get_table("lemma_lookup", {})
    for doc in nlp.pipe(normalize(a) for a in _answers()):
        assert [t.lemma_ for t in doc] == [LEMMA_OVERRIDES.get(t.lower_) or table.get(t.lower_, t.lower_)
                                           for t in doc]
        assert [t.lemma_ for t in doc] == [lemmatizer.lookup_lemmatize(t)[0] for t in doc]


def test_the_array_lemmatizer_keeps_lemmas_set_before_unless_told_to_overwrite(nlp):
    lemmatizer = nlp.get_pipe("lemmatizer")
    doc = nlp.make_doc("the bulbs are lit")
    doc[1].lemma_ = "lamp"
    lemmatizer(doc)
    assert [t.lemma_ for t in doc] == ["the", "lamp", "be", "light"]


def test_the_lemmatizer_of_batches_gives_the_lemmas_of_each_doc_in_turn(nlp):
    lemmatizer = nlp.get_pipe("lemmatizer")
    texts = [normalize(a) for a in _answers()] + ["", "the bulbs are lit"]
    one_by_one = [[t.lemma_ for t in lemmatizer(nlp.make_doc(t))] for t in texts]
    for size in (1, 7, 1000):
        docs = [nlp.make_doc(t) for t in texts]
        docs[-1][1].lemma_ = "lamp"  # set before: kept, as doc by doc
        out = list(lemmatizer.pipe(iter(docs), batch_size=size))
        assert all(a is b for a, b in zip(out, docs)) and len(out) == len(docs)
        assert [[t.lemma_ for t in d] for d in out] == one_by_one[:-1] + [["the", "lamp", "be", "light"]]
    assert [[t.lemma_ for t in d] for d in nlp.pipe(texts, batch_size=5)] == one_by_one


def _plain_read_tokens(doc, speller: Speller) -> tuple[list[str], list[str], int]:
    keys, norms, words = [], [], 0
    for i, tok in enumerate(doc):
        lower = tok.lower_
        if len(lower) == 1 and lower.isalpha() and is_label(doc, i, speller.label_words):
            keys.append(lower.upper())
        else:
            keys.append(speller.norm(lower, tok.lemma_))
        norms.append(tok.norm_)
        words += not (tok.is_punct or tok.is_space)
    return keys, norms, words


def test_reading_tokens_from_arrays_gives_the_keys_of_reading_each_token(nlp):
    speller = Speller({"terminal": "terminal", "acceleration": "acceleration", "gravity": "gravity"})
    for doc in nlp.pipe(normalize(a) for a in _answers()):
        assert read_tokens(doc, speller) == _plain_read_tokens(doc, speller)


def test_reading_a_batch_of_docs_at_once_gives_the_keys_of_reading_each_token(nlp):
    from features.lexicon import read_tokens_batch

    speller = Speller({"terminal": "terminal", "acceleration": "acceleration", "gravity": "gravity"})
    docs = list(nlp.pipe(normalize(a) for a in _answers()))
    for doc in docs[:40]:  # norms that are not the lexemes' any more, as after set_keys
        for tok in doc:
            if tok.is_alpha and len(tok) > 3:
                tok.norm_ = tok.lower_[::-1]
    plain = [_plain_read_tokens(doc, speller) for doc in docs]
    assert any(k.isupper() for keys, _, _ in plain for k in keys)  # labels are in the test
    for size in (1, 3, 256, len(docs)):
        batches = [docs[i:i + size] for i in range(0, len(docs), size)]
        assert [r for b in batches for r in read_tokens_batch(b, speller)] == plain
    assert read_tokens_batch([], speller) == []
    assert read_tokens_batch(list(nlp.pipe(["", " "])), speller) == \
        [_plain_read_tokens(d, speller) for d in nlp.pipe(["", " "])]
    # a lemma set otherwise than from the lower-case form (another pipeline's lemmatizer)
    odd = list(nlp.pipe(["the bulbs are lit", "Bulbs A and B"]))
    odd[0][1].lemma_ = "lamp"
    assert read_tokens_batch(odd, speller) == [_plain_read_tokens(d, speller) for d in odd]
    assert read_tokens_batch(odd, speller)[0][0][1] == "lamp"


@pytest.mark.parametrize("question", [RUBRIC_QUESTION, REFERENCE_QUESTION], ids=lambda q: q.id)
def test_one_matcher_of_all_phrases_finds_what_the_rubric_and_text_matchers_find(question):
    from features.extractor import FeatureExtractor
    from features.lexicon import set_keys

    train = generate_answers(question, 300, seed=11)
    fx = FeatureExtractor(question).fit(train, [str(len(a) % 3) for a in train])
    seen = set()
    for a in fx._analyse(_answers()):
        set_keys(a.doc, a.keys, a.norms)
        plain = fx.rubric_matcher_.states(a.doc, a.negated, a.keys)
        if a.text_keys is not a.keys:
            set_keys(a.doc, a.text_keys, a.norms)
        plain.update(fx.text_matcher_.states(a.doc, a.text_negated, a.text_keys))
        if a.text_keys == a.keys and a.text_negated == a.negated:  # what _row asks the one matcher
            assert fx.matcher_.states(a.doc, a.negated, a.keys) == plain
            seen.update((c.split(":")[0], state) for c, state in plain.items())
    assert {("ref", "present"), ("ref", "negated")} <= seen
    assert question is REFERENCE_QUESTION or ("concept", "present") in seen


@pytest.mark.parametrize("question", [RUBRIC_QUESTION, REFERENCE_QUESTION], ids=lambda q: q.id)
def test_the_phrase_cells_set_from_what_was_found_are_those_of_every_column(question):
    from features.concepts import ABSENT
    from features.extractor import FeatureExtractor
    from features.lexicon import set_keys
    from features.reference import content_polarity

    train = generate_answers(question, 300, seed=12)
    fx = FeatureExtractor(question).fit(train, [str(len(a) % 3) for a in train])
    start = len(fx._concept_columns) + 2 * len(question.quantities) + len(fx._misconception_columns)
    width = len(fx._phrase_columns)
    assert width > 10
    states = set()
    for a in fx._analyse(_answers()):
        set_keys(a.doc, a.keys, a.norms)
        found = fx.rubric_matcher_.states(a.doc, a.negated, a.keys)
        set_keys(a.doc, a.text_keys, a.norms)
        found.update(fx.text_matcher_.states(a.doc, a.text_negated, a.text_keys))
        plain = [found.get(c, ABSENT) for c in fx._phrase_columns]
        states.update(plain)
        assert fx._row(a, content_polarity(a.text_keys, a.text_negated))[start:start + width] == plain
    assert states == {"present", "negated", "absent"}


def test_negation_cues_found_from_the_token_arrays_are_those_of_each_token(nlp):
    from features.negation import _elided_subject, _is_cue, _rule_scope, negation_scopes

    def plain(doc):  # the scopes as they were worked out before: a Token per token
        return [sorted(i for i in set(_rule_scope(doc, tok) or _elided_subject(doc, tok))
                       if not _is_cue(doc[i]))
                for tok in doc if _is_cue(tok)]

    texts = [normalize(a) for a in _answers()] + [
        "neither A nor B is lit", "no, not connected, nothing flows", "Nope it cannot", "NOT  never"]
    docs = list(nlp.pipe(texts))
    docs[-1][0].lemma_ = "knot"  # a cue by its lower-case form alone
    docs[-2][0].lemma_ = "no"  # ... and one by its lemma alone ("Nope" -> "no")
    docs[-2][0].norm_ = "nope"
    found = 0
    for doc in docs:
        expected = plain(doc)
        found += len(expected)
        assert negation_scopes(doc, False) == expected
        assert negation_scopes(doc, False, [t.lemma_ for t in doc]) == expected
    assert found > 50


def test_the_cached_cleaning_of_answers_is_the_cleaning_of_each_answer():
    from features.text import _MAX_CACHED_LENGTH, _clean, _cached_clean, to_text

    answers = _answers() + [None, float("nan"), b"caf\xc3\xa9  ok", 9.8, "x " * 3000,
                            "\u00a0" * (_MAX_CACHED_LENGTH + 1), "a" * _MAX_CACHED_LENGTH]
    first = [normalize(a) for a in answers]
    assert [normalize(a) for a in answers] == first  # the second time from the cache
    assert first == [_clean(to_text(a)) for a in answers]
    assert _cached_clean.cache_info().currsize > 0 and first[-2] == "" and len(first[-3]) == 5000


def test_a_quantity_verdict_worked_out_once_is_the_verdict_worked_out_again():
    quantities = RUBRIC_QUESTION.quantities + (qty.Quantity("force", 10.0, "N", 0.05),)
    texts = [normalize(a) for a in _answers()] * 2  # the second round answers from the cache
    verdicts = []
    for text in texts:
        mentions = qty.find_numbers(text)
        for q in quantities:
            verdicts.append((text, q.name, qty.check(q, mentions, quantities)))
    qty._check.cache_clear()
    for text, name, verdict in verdicts:
        q = next(q for q in quantities if q.name == name)
        fresh = qty.check(q, qty.find_numbers(text), quantities)
        qty._check.cache_clear()
        assert (fresh.status, _bits(fresh.value)) == (verdict.status, _bits(verdict.value)), text


def test_the_cached_verdict_keeps_the_sign_of_a_zero():
    q = qty.Quantity("acceleration", 9.8, "m/s^2", 0.02)
    plus = qty.check(q, qty.find_numbers("0 m/s^2"))
    minus = qty.check(q, qty.find_numbers("-0 m/s^2"))
    assert plus.status == minus.status == "wrong_value"
    assert math.copysign(1.0, plus.value) == 1.0 and math.copysign(1.0, minus.value) == -1.0


def _bits(value: float) -> str:
    return "nan" if math.isnan(value) else value.hex()


def test_the_wording_scores_from_cached_word_columns_are_those_of_all_the_ngrams():
    from features.text_model import NgramScorer, _readable, answer_ngrams

    train = generate_answers(REFERENCE_QUESTION, 200, seed=5) + generate_answers(RUBRIC_QUESTION, 200, seed=6)
    marks = [str(len(a) % 3) for a in train]
    scorer = NgramScorer.fit([normalize(a) for a in train], marks)
    texts = [normalize(a) for a in _answers()] * 2  # the second round from the word cache
    plain = _readable(scorer._rows([answer_ngrams(t) for t in texts]) @ scorer.weights + scorer.bias)
    assert (scorer.score(texts) == plain).all()
    assert [scorer._columns(t) for t in texts] == [
        {scorer.vocabulary.index(g) for g in answer_ngrams(t) if g in scorer.vocabulary} for t in texts]
    # the sparse sums are the dense ones but for the order of the additions
    dense = scorer._rows([answer_ngrams(t) for t in texts]) @ scorer.weights + scorer.bias
    assert np.allclose(scorer._sparse_scores([scorer._columns(t) for t in texts]), dense,
                       rtol=0, atol=1e-12)


def test_the_flattened_columns_are_each_answers_sorted_columns_and_give_the_same_sums():
    from features.text_model import NgramColumns, NgramScorer, flatten_columns

    train = generate_answers(REFERENCE_QUESTION, 200, seed=9) + generate_answers(RUBRIC_QUESTION, 200, seed=10)
    scorer = NgramScorer.fit([normalize(a) for a in train], [str(len(a) % 3) for a in train])
    texts = [normalize(a) for a in _answers()]
    sets = [scorer._columns(t) for t in texts]
    assert any(not c for c in sets) and any(len(c) > 50 for c in sets)
    flat = scorer.columns_of(texts)
    assert isinstance(flat, NgramColumns)
    assert flat.lengths.tolist() == [len(c) for c in sets]
    assert flat.indices.tolist() == [j for c in sets for j in sorted(c)]
    # a set's own order is not sorted: the sort is what makes the sums those of before
    shuffled = [set(random.Random(i).sample(sorted(c), len(c))) for i, c in enumerate(sets)]
    assert flatten_columns(shuffled, len(scorer.vocabulary)).indices.tolist() == flat.indices.tolist()
    assert flatten_columns([], 10).indices.tolist() == []

    def plain(columns):  # the sums as they were written before: a Python sort per answer
        lengths = np.fromiter((len(c) for c in columns), dtype=np.int64, count=len(columns))
        indices = np.fromiter((j for c in columns for j in sorted(c)), dtype=np.int64,
                              count=int(lengths.sum()))
        return scorer._sparse_scores(NgramColumns(lengths, indices))

    assert [v.hex() for v in scorer._sparse_scores(flat).ravel().tolist()] == \
        [v.hex() for v in plain(sets).ravel().tolist()]
    assert (scorer.score(texts) == scorer.score(texts, columns=flat)).all()


def test_unit_readings_skipping_words_pint_cannot_read_are_the_readings_of_every_spelling():
    from features.spelling import english_words

    words = sorted(english_words())[::97][:400] + ["m", "s", "N", "kg", "V", "A", "ohm", "Hz", "mV", "C", "F"]
    tails = [normalize(a) for a in _answers()] + [f"9.8 m/s^2 {w} s" for w in words] \
        + [f"10 {w} per second squared" for w in words] + [f"3 {w}" for w in words]
    sequences = {m.unit_words[:n] for t in tails for m in qty.find_numbers(t)
                 for n in range(1, len(m.unit_words) + 1)}
    assert len(sequences) > 500
    for seq in sequences:
        assert qty.parse_unit(seq) == qty.parse_unit(seq, skip_unknown_atoms=False), seq


def test_the_wording_support_of_whole_arrays_is_that_of_each_answer_in_turn():
    from grader.grading.wording import WordingSupport

    train = generate_answers(REFERENCE_QUESTION, 200, seed=7) + generate_answers(RUBRIC_QUESTION, 200, seed=8)
    wording = WordingSupport.fit(train, [str(len(a) % 3) for a in train])
    answers = _answers()
    marks = [[None, "0", "1", "2", "7", 1][i % 6] for i in range(len(answers))]
    scores = wording.scorer.score([normalize(a) for a in answers])
    column = {m: j for j, m in enumerate(wording.scorer.marks)}
    plain_support, plain_preferred = [], []
    for i, mark in enumerate(marks):
        j = None if mark is None else column.get(str(mark))
        best = scores[i].max()
        if j is not None and best > 0:
            plain_support.append(round(min(scores[i, j] / best, 1.0), 2))
            plain_preferred.append(wording.scorer.marks[int(np.argmax(scores[i]))])
        else:
            plain_support.append(math.nan)
            plain_preferred.append(None)
    support, preferred = wording.judge(answers, marks)
    assert [_bits(float(s)) for s in support] == [_bits(float(s)) for s in plain_support]
    assert preferred == plain_preferred


def _number_texts() -> list[str]:
    extra = ["-9.8", "+3e8 m", ".5 A", "1,500 mV", "10^-3", "3 x 10^8", "a-1.5", "^2", "x.5",
             "v1.2.3", "١٢ m", "twenty-five", "TWENTY five", "Nine point eight", "half",
             "nineteen", "ninety9", "9half", "ſeven", "K"]
    return [normalize(a) for a in _answers()] + extra


def test_numbers_found_from_candidate_positions_are_those_of_scanning_every_position():
    from features import numerals

    for text in _number_texts() + _WORD_NUMBER_TEXTS:
        assert [m.span() for m in numerals.number_matches(text)] == \
            [m.span() for m in numerals.NUMBER.finditer(text)], text
        assert [m.span() for m in numerals.word_runs(text)] == \
            [m.span() for m in numerals.WORD_RUN.finditer(text)], text
        if not numerals.may_have_number_words(text):
            assert numerals.WORD_RUN.search(text) is None, text
            if numerals.DIGIT.search(text) is None:  # find_numbers' quicker test of _has_number
                assert not _has_number(text), text


def _has_number(text: str) -> bool:
    """A digit or a number word, by one regular expression: what find_numbers' two quicker
    tests (a digit, `may_have_number_words`) stand for."""
    import re

    from features.numerals import NUMBER_WORDS

    return re.search(r"\d|\b(?:%s)\b" % "|".join(NUMBER_WORDS), text, re.IGNORECASE) is not None


_WORD_NUMBER_TEXTS = ["5five", "twentyfive m", "Twenty-Five and one hundred", "one", "ones", "a_one",
                      "x-one two", "half a second", "oh nine", "Nine point eight m/s^2 NINE", "été one two",
                      "twenty - five", "one-oh-one", "one,two", "1,5 and 1,500 and 1,5000", "2/0 m", "seven 7s",
                      "nine point eight and nine point", "one of the bulbs", "one metre", "one m/s per second",
                      "440 1/s and 2 1 / s", "one and a half of an hour", "three-quarters an A", "half of",
                      "20 000 Hz and 1 000 000 N, bulbs 1 234", "-3 000 m and 12 345"]


def _plain_find_numbers(text: str) -> list:
    """find_numbers as it was: every group read by name, the word runs scanned at every
    position, the unit words split per number, the mentions sorted."""
    import re

    def digits(s):
        if re.fullmatch(r"\d+(?:,\d{3})+", s):
            return float(s.replace(",", ""))
        return float(s.replace(",", "."))

    def with_unit(value, start, end):
        tail = qty._UNIT_TAIL.match(text, end)
        words = ()
        if tail:
            words = tuple(w for w in qty._ATOM_SPLIT.split(tail.group("unit")) if w and not w.isspace())
        words = tuple("/" if w.lower() == "per" else w for w in words)
        return qty.Mention(value, words, start, tail.end() if tail else end)

    found = []
    for m in numerals_module().NUMBER.finditer(text):
        if found and m.start() < found[-1].end:  # the 1 of "1/s"
            continue
        if m.group("num"):
            den = float(m.group("den"))
            if den == 0:
                continue
            value = float(m.group("num")) / den
        elif m.group("mant"):
            value = digits(m.group("mant"))
            exp = m.group("e1") or m.group("e2")
            if exp:
                value *= 10.0 ** int(exp)
        else:
            value = 10.0 ** int(m.group("e3"))
        if m.group("sign") == "-":
            value = -value
        mention = with_unit(value, m.start(), m.end())
        joined = (qty._spaced_thousands(text, found[-1], mention)
                  if found and re.fullmatch(r"\d{3}", m.group()) and not found[-1].unit_words else None)
        if joined is not None:
            found[-1] = joined
            continue
        found.append(mention)
    for m in numerals_module().WORD_RUN.finditer(text):
        value = numerals_module().words_value(m.group())
        if value is None:
            continue
        mention = with_unit(value, m.start(), numerals_module().fraction_of_end(text, m))
        if value == 1 and not qty._has_unit(mention):
            continue
        found.append(mention)
    found.sort(key=lambda x: x.start)
    return found


def numerals_module():
    from features import numerals

    return numerals


def test_numbers_found_with_the_fast_paths_are_those_found_the_plain_way():
    texts = _number_texts() + _WORD_NUMBER_TEXTS
    for text in texts + [t.upper() for t in texts]:
        fast, plain = qty.find_numbers(text), _plain_find_numbers(text)
        assert [(m.unit_words, m.start, m.end) for m in fast] == [(m.unit_words, m.start, m.end) for m in plain], text
        assert [_bits(m.value) for m in fast] == [_bits(m.value) for m in plain], text
    assert sum(len(qty.find_numbers(t)) for t in texts) > 300


def test_a_quantity_verdict_without_the_words_after_the_unit_is_the_verdict_with_them():
    quantities = RUBRIC_QUESTION.quantities + (qty.Quantity("force", 10.0, "N", 0.05),)
    words = ["because", "of", "gravity", "m", "s", "/", "*", "squared", "per", "degrees", "C",
             "N", "kg", "think", "ms-2", "s^2", "lol", "metres", "second", "Celsius", "deg"]
    rng = random.Random(0)
    tails = [tuple(rng.choice(words) for _ in range(rng.randrange(0, 6))) for _ in range(400)]
    tails += [m.unit_words for t in _number_texts() for m in qty.find_numbers(t)]
    for tail in tails:
        for q in quantities:
            for value in (9.8, 10.0, -0.0):
                full = qty._check.__wrapped__(q, ((value, math.copysign(1.0, value), tail),), quantities)
                short = qty._check(q, ((value, math.copysign(1.0, value), qty._readable_words(tail)),),
                                   quantities)
                assert _bits(full.value) == _bits(short.value) and full.status == short.status, (tail, q.name)


def test_the_cached_content_test_is_the_plain_one():
    from features.lexicon import is_content

    for key in ["gap", "the", "not", "A", "a", "9", ".", "--", "9.8", "'s", "same", "x", "ça"]:
        assert is_content(key) == is_content.__wrapped__(key)


def test_similarity_from_gathered_rows_is_the_matrix_product():
    from features.similarity import Exemplars, polarity_keys

    rng = random.Random(1)
    words = [f"w{i}" for i in range(60)] + [f"w{i}~not" for i in range(20)]
    train = [frozenset(rng.sample(words, rng.randrange(0, 9))) for _ in range(300)]
    ex = Exemplars.fit(train, [str(rng.randrange(3)) for _ in train])
    answers = [frozenset(rng.sample(words + ["unseen"], rng.randrange(0, 12))) for _ in range(500)]
    rows = np.zeros((len(answers), len(ex._vocab)), dtype=np.float32)
    for i, keys in enumerate(answers):
        rows[i, [ex._vocab[k] for k in keys if k in ex._vocab]] = 1.0
    assert ex._shared_counts(answers).tobytes() == (rows @ ex._matrix).tobytes()
    assert polarity_keys({"gap": False, "close": True}) == {"gap", "close~not"}


def _plain_frame(arrays, columns):
    """The feature frame as it was made: a Series of the array's dtype per column."""
    import pandas as pd

    return pd.DataFrame({name: pd.Series(a, dtype=a.dtype) for name, a in zip(columns, arrays)},
                        columns=list(columns))


def test_a_frame_made_of_the_column_arrays_is_the_frame_of_a_series_per_column():
    import pandas as pd

    from features.frames import frame_of_arrays

    names = ["concept:gravity", "coverage", "term:x", "length"]
    for n in (0, 1, 5):
        arrays = [np.array(["present", "absent", "negated", None, "absent"][:n], dtype=object),
                  np.array([0.5, math.nan, 1.0, -0.0, 2.0][:n], dtype=float),
                  np.array(["yes", "no", "no", "yes", "no"][:n], dtype=object),
                  np.arange(n, dtype=float)]
        fast, plain = frame_of_arrays(arrays, names), _plain_frame(arrays, names)
        pd.testing.assert_frame_equal(fast, plain, check_exact=True)
        assert list(fast.dtypes) == [object, float, object, float]  # no inferred `str` dtype
        assert fast.columns.dtype == plain.columns.dtype and isinstance(fast.index, pd.RangeIndex)
    assert frame_of_arrays([], []).shape == (0, 0) == _plain_frame([], []).shape


@pytest.mark.parametrize("question", [RUBRIC_QUESTION, REFERENCE_QUESTION], ids=lambda q: q.id)
def test_the_feature_frame_of_column_arrays_is_the_frame_of_a_series_per_column(question, monkeypatch):
    import pandas as pd

    import features.extractor
    from features.extractor import FeatureExtractor

    train = generate_answers(question, 200, seed=13)
    fx = FeatureExtractor(question).fit(train, [str(len(a) % 3) for a in train])
    fast = fx.transform(_answers())
    monkeypatch.setattr(features.extractor, "frame_of_arrays", _plain_frame)
    plain = fx.transform(_answers())
    pd.testing.assert_frame_equal(fast, plain, check_exact=True)
    assert list(fast.dtypes) == list(plain.dtypes) and fast.columns.equals(plain.columns)
    assert set(fast.dtypes) == {np.dtype(object), np.dtype(float)}


def _coverage_precision(model, answer: dict) -> tuple[float, float]:
    """Coverage and precision as they were counted: key by key in Python."""
    coverage = 0.0
    for ref in model.polarities:
        if ref:
            hit = sum(1 for k, neg in ref.items() if k in answer and answer[k] == neg)
            coverage = max(coverage, hit / len(ref))
    if not answer:
        return coverage, 0.0
    inside = sum(1 for k, neg in answer.items() if neg in model.union.get(k, ()))
    return coverage, inside / len(answer)


@pytest.mark.parametrize("question", [RUBRIC_QUESTION, REFERENCE_QUESTION], ids=lambda q: q.id)
def test_coverage_and_precision_from_set_sizes_are_those_counted_key_by_key(question):
    from features.extractor import FeatureExtractor
    from features.reference import CoverageSets, ReferenceModel, content_polarity

    fx = FeatureExtractor(question).fit(generate_answers(question, 100, seed=14))
    model = fx.reference_
    fast = CoverageSets.of(model)
    seen = set()
    for a in fx._analyse(_answers()):
        polarity = content_polarity(a.text_keys, a.text_negated)
        plain = _coverage_precision(model, polarity)
        assert fast(polarity) == plain and all(type(x) is float for x in fast(polarity))
        seen.add(plain)
    assert len(seen) > 20 and any(0 < c < 1 and 0 < p < 1 for c, p in seen)
    # several reference answers, one of them empty, and polarities that differ
    model = ReferenceModel([], [{"gap": False, "current": True}, {}, {"gap": True, "flow": False}])
    fast = CoverageSets.of(model)
    for polarity in ({}, {"gap": True}, {"gap": False, "flow": False}, {"current": True, "bulb": False},
                     {"gap": True, "flow": False, "current": False}):
        assert fast(polarity) == _coverage_precision(model, polarity)
    assert CoverageSets.of(ReferenceModel())({"gap": False}) == (0.0, 0.0)


def _plain_states(matcher, doc, negated, keys=None) -> dict:
    """FeatureMatcher.states as it was: the phrase's own cues looked at for every match."""
    from features.concepts import CUES, NEGATED, PRESENT

    found = {}
    matches = matcher.matcher(doc) + (matcher.token_matcher(doc) if matcher.token_matcher else [])
    for match_id, start, end in matches:
        column, flipped = matcher._ids[match_id]
        if found.get(column) == PRESENT:
            continue
        if keys is None:
            says_negation = any(doc[i].norm_ in CUES for i in range(start, end))
        else:
            says_negation = not CUES.isdisjoint(keys[start:end])
        is_negated = any(negated[start:end]) and not says_negation
        found[column] = NEGATED if is_negated != flipped else PRESENT
    norms = [t.norm_ for t in doc]
    for column, state in matcher.loose.states(norms, negated, lambda: [t.lower_ for t in doc]).items():
        if state == PRESENT or column not in found:  # phrases in another order: present wins
            found[column] = state
    return found


@pytest.mark.parametrize("question", [RUBRIC_QUESTION, REFERENCE_QUESTION], ids=lambda q: q.id)
def test_phrase_states_looking_at_cues_only_in_a_negation_scope_are_the_plain_ones(question):
    from features.extractor import FeatureExtractor
    from features.lexicon import set_keys

    train = generate_answers(question, 200, seed=15)
    fx = FeatureExtractor(question).fit(train, [str(len(a) % 3) for a in train])
    extra = ["the circuit is not complete", "there is no current", "not no current", "it is not connected",
             "the velocity is not zero", "there is no acceleration", "not downward", "gravity does not stop"]
    states = set()
    for a in fx._analyse(_answers() + extra):
        for matcher, keys, negated in ((fx.matcher_, a.keys, a.negated), (fx.rubric_matcher_, a.keys, a.negated),
                                       (fx.text_matcher_, a.text_keys, a.text_negated)):
            set_keys(a.doc, keys, a.norms)
            for given in (keys, None):
                plain = _plain_states(matcher, a.doc, negated, given)
                assert matcher.states(a.doc, negated, given) == plain, a.text
                states.update(plain.values())
    assert states == {"present", "negated"}


def test_a_frame_of_arrays_refuses_a_name_twice_rather_than_keep_one_column():
    from features.frames import frame_of_arrays

    with pytest.raises(ValueError, match="2 arrays for 2 column names, 1 of them distinct"):
        frame_of_arrays([np.zeros(2), np.ones(2)], ["x", "x"])
