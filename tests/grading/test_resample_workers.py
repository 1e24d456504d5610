"""Resampled models learned in worker processes (`GradingModel.train(executor=...)`, what the
app does while a marker waits) are the models learned in one process: same rules, same vote,
same confidences."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest

from grader.app.settings import REPO
from grader.exams.exam_io import read_marked_answers
from grader.grading.agreement import CHUNKS, ResampledAgreement
from grader.grading.model import GradingModel
from knowledge import load_question
from tests.data import marked_answers, small_question

QUESTIONS = ("vertical_throw", "open_circuit_bulb", "resistor_current")


@pytest.fixture(scope="module")
def workers():
    pool = ProcessPoolExecutor(CHUNKS, mp_context=multiprocessing.get_context("spawn"))
    yield pool
    pool.shutdown()


def _sample(name: str):
    question = load_question(REPO / "sample_data" / name / "question.yaml")
    marked = read_marked_answers(REPO / "sample_data" / name / "marked.csv", marks=question.marks)
    return question, list(marked.answers), list(marked.marks)


@pytest.mark.parametrize("name", QUESTIONS)
def test_a_model_trained_with_worker_processes_is_the_model_trained_without(name, workers):
    question, answers, marks = _sample(name)
    alone = GradingModel.train(question, answers, marks)
    helped = GradingModel.train(question, answers, marks, executor=workers)
    assert len(helped.agreement.rule_lists_) == len(alone.agreement.rule_lists_) > CHUNKS
    assert helped.fingerprint() == alone.fingerprint()  # rules, resampled rule lists, wording
    exam = answers[::7]
    a, b = alone.grade(exam), helped.grade(exam)
    assert a["mark"].tolist() == b["mark"].tolist() and a["rule"].tolist() == b["rule"].tolist()
    np.testing.assert_array_equal(a["confidence"].to_numpy(), b["confidence"].to_numpy())


class _Refusing(Executor):
    """An executor whose workers are gone: every job it is given fails."""

    def submit(self, fn, *args, **kwargs) -> Future:
        job: Future = Future()
        job.set_exception(RuntimeError("the worker process died"))
        return job


class _Closed(Executor):
    def submit(self, fn, *args, **kwargs) -> Future:
        raise RuntimeError("cannot schedule new futures after shutdown")


@pytest.mark.parametrize("executor", [_Refusing(), _Closed()], ids=["job lost", "pool closed"])
def test_resamples_are_learned_here_when_the_workers_fail(executor):
    answers, marks = marked_answers()
    question = small_question()
    alone = GradingModel.train(question, answers, marks, n_resamples=6, wording_support=False)
    helped = GradingModel.train(question, answers, marks, n_resamples=6, wording_support=False,
                                executor=executor)
    assert helped.fingerprint() == alone.fingerprint()


def test_the_resamples_keep_their_order_when_split_between_workers():
    answers, marks = marked_answers()
    model = GradingModel.train(small_question(), answers, marks, n_resamples=0, wording_support=False)
    X = model.features(answers)
    alone = ResampledAgreement(7).fit(model.learner, X, marks)
    with ThreadPoolExecutor(CHUNKS) as pool:
        split = ResampledAgreement(7).fit(model.learner, X, marks, executor=pool)
    assert len(split.rule_lists_) == 7
    assert split.to_dict() == alone.to_dict()  # every resample's rule list, in the order drawn


def test_no_resamples_ask_nothing_of_the_learner():
    class Bare:  # a learner without get_params or target_name_ (a rule ensemble, say)
        pass

    answers, marks = marked_answers()
    X = GradingModel.train(small_question(), answers, marks, n_resamples=0, wording_support=False).features(answers)
    with ThreadPoolExecutor(CHUNKS) as pool:
        assert ResampledAgreement(0).fit(Bare(), X, marks, executor=pool).rule_lists_ == []
