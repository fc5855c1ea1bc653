"""A page's parameters, pure (beside attention/view.py): the clicked selection, a text checked as input, its
tail, and literal text made safe for markdown. No Streamlit, no torch: plots, the lesson and pages share them."""
