"""The notebook API behind `import attention`, one module per seam: traces (trace, show, save_html,
translate, head_effects, compare), the language model (next_token, generate, evict, why) and what heads do
(head_roles, head_role_proof, head_atlas). Light: each function imports what it runs (torch, transformers,
the translator) only when it is called; `model=` always goes through the source registry (model_names.py)."""
