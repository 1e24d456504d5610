"""The marker's app: `streamlit run app.py` opens the bundled sample exam, already graded.

The page lives in `grader/app/` (see docs/app.md); this file only starts it.
"""

if __name__ == "__main__":  # Streamlit runs the page as __main__. A background worker, spawned,
    # imports this file as __mp_main__: it must neither draw the page nor import it (the page's
    # Streamlit caches, made outside a server, print "No runtime found" in every worker)
    from grader.app.page import main

    main()
