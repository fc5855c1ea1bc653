"""The lesson as data, no Streamlit: each step's text, figure, hint, link and prediction read from the
learner's traces (steps.py on the pretrained model, story.py on the translator and the order of all), and
the printable page (printout.py). Imports analysis, plots, trace, core, i18n and the session key names;
ui/pages/lesson_page.py draws it."""
