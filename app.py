"""The marker's app: `streamlit run app.py` opens the bundled sample exam, already graded.

The page lives in `grader/app/` (see docs/app.md); this file only starts it.
"""

from grader.app.page import main

main()
