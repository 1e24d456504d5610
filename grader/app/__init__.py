"""The marker's Streamlit app (`app.py` runs `grader.app.page.main`).

Logic without Streamlit: `settings` (GRADER_* environment variables), `session` (opening
an exam, training with a cache), `review_training` (learning from reviews), `review` (the
marks table, queue, groups), `export`, `uploads`, and `review_store` (the decisions, in
SQLite, with an audit trail). Streamlit: `page` (the skeleton and sidebar), `ui` (what the views share: cached
resources, the marker's name, notices, escaping user text), and the views `views_review`,
`views_groups`, `views_marks`, `views_rubric`, `views_open`, which import `ui` and never `page`.
"""
