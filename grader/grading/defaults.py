"""The grading model's default settings, in a module that imports nothing.

Why apart from `grader.grading.model`: the command line shows them in `grader --help` and
checks its arguments before any work, and importing the model means importing spaCy and
pandas (about 1.5 s). A teacher who asks for help or mistypes an option is answered at once.
"""

#: Default pruning thresholds of the learner, chosen by cross-validation on sample_data/
#: (see docs/cli.md).
DEFAULT_IMPROVEMENT_THRESHOLD = 0.05
DEFAULT_CONFIDENCE_THRESHOLD = 0.5
#: The marked answers of its mark a teacher's initial rule must mark rightly to be kept: rules
#: the answers show on one or two answers cost accuracy on the rest of the class (the rubric
#: bench, cross-validated inside split=train: docs/beetle.md).
DEFAULT_MIN_INITIAL_SUPPORT = 3
#: Marks less confident than this are flagged for a human.
DEFAULT_FLAG_BELOW = 0.7
#: Rule lists learned on resamples of the marked answers, beside the model's own
#: (`grader.grading.agreement`).
DEFAULT_RESAMPLES = 20
#: The accuracy the stop estimate (`grader.grading.stop`) vouches for unless the teacher sets
#: another (here so that the command line's help names it without importing numpy and scipy).
DEFAULT_STOP_TARGET = 0.95
