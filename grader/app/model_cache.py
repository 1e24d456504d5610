"""Trained models kept in the working folder, under a hash of everything they are trained
from (question file, marked answers, training parameters, model format): reopening an exam,
or restarting the server, loads them in a moment instead of training again."""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import OrderedDict
from concurrent.futures import Executor
from pathlib import Path
from typing import Callable, Mapping

from grader.exams.exam_io import read_marked_answers

log = logging.getLogger(__name__)

Progress = Callable[[float, str], None]

#: Training parameters the app uses (the pipeline's defaults unless set here).
TRAIN_PARAMS: dict = {}


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def model_key(question_path: Path, training_path: Path, params: Mapping) -> str:
    """A hash of everything a model is trained from."""
    from grader.grading.model_file import MODEL_FORMAT_VERSION

    h = hashlib.sha256()
    h.update(file_digest(question_path).encode())
    h.update(file_digest(training_path).encode())
    h.update(json.dumps(params, sort_keys=True, default=str).encode())
    h.update(str(MODEL_FORMAT_VERSION).encode())
    return h.hexdigest()[:20]


def load_question(path: Path):
    from knowledge import load_question as _load

    return _load(path)


#: Models read from their files, by file, time written and size: learning from reviews starts
#: from the model of the exam's own marked answers (`keep_rules_of`) each time, and reading
#: its JSON again was a tenth of a second of the marker's wait.
_LOADED: OrderedDict[tuple, object] = OrderedDict()
_LOADED_LOCK = threading.Lock()
LOADED_MODELS_KEPT = 16


def _load_model(path: Path):
    """`GradingModel.load(path)`, read once while the file stays as it is (models are only read)."""
    from grader.grading.model import GradingModel

    stat = path.stat()
    stamp = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    with _LOADED_LOCK:
        if stamp in _LOADED:
            _LOADED.move_to_end(stamp)
            return _LOADED[stamp]
    model = GradingModel.load(path)
    with _LOADED_LOCK:
        _LOADED[stamp] = model
        while len(_LOADED) > LOADED_MODELS_KEPT:
            _LOADED.popitem(last=False)
    return model


def train_or_load(question_path: Path, training_path: Path, cache_dir: Path, *,
                  progress: Progress | None = None, params: Mapping | None = None,
                  keep_rules_of: tuple | None = None, executor: Executor | None = None):
    """(model, key): the cached model for these inputs, or a freshly trained (and cached) one.
    `keep_rules_of`: (model, its key), an earlier model whose rules the new answers do not
    contradict are kept (`GradingModel.train(keep_rules_of=...)`); `executor`: worker
    processes for the resamples (`GradingModel.train(executor=...)`, the same model)."""
    from grader.grading.model import GradingModel

    params = dict(TRAIN_PARAMS if params is None else params)
    key = model_key(question_path, training_path,
                    params if keep_rules_of is None else dict(params, keep_rules_of=keep_rules_of[1]))
    cached = Path(cache_dir) / f"{Path(question_path).parent.name}-{key}.json"
    if cached.exists():
        try:
            return _load_model(cached), key
        except Exception as exc:  # a damaged or outdated cache entry: train again
            log.warning("cannot reuse cached model %s (%s); training again", cached, exc)
    question = load_question(question_path)
    marked = read_marked_answers(training_path, marks=tuple(getattr(question, "marks", ()) or ()))
    if keep_rules_of is not None:
        params["keep_rules_of"] = keep_rules_of[0]
    model = GradingModel.train(question, marked.answers, marked.marks, progress=progress, executor=executor,
                               **params)
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        model.save(cached)
    except Exception as exc:  # the model still works; it is only trained again next time
        log.warning("cannot keep the trained model in %s: %s", cached, exc)
    return model, key
