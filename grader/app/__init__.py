"""The marker's Streamlit app (`app.py` runs `grader.app.page.main`).

Logic without Streamlit: `settings` (GRADER_* environment variables), `session` (opening
an exam, training with a cache, learning from reviews), `review` (the marks table, queue,
groups), `export`, `uploads`. Streamlit views: `page`, `views_review`, `views_marks`,
`views_rubric`, `views_open`. Decisions are stored by `grader.review_store`.
"""
