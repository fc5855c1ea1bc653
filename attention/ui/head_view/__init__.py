"""The head view as Streamlit elements: the adapters between attention/headview (the browser's view and what
it is sent) and a page — the component, the long view, the detail panel's blocks and data, the legend and the
explanations under the matrices. They import shared glue and hosting, never a page."""
