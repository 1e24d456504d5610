"""The marker's app: `streamlit run app.py` opens the bundled sample exam, already graded.

The page lives in `grader/app/` (see docs/app.md); this file only starts it.
"""

from grader.app.page import main

if __name__ == "__main__":  # Streamlit runs the page as __main__; a background worker, spawned,
    main()                  # imports this file as __mp_main__ and must not draw the page
