"""A Source is a model the app can show: one protocol (base.py), one implementation per back end
(hf.py: a Hugging Face folder, all-MiniLM-L6-v2 by default; translator.py: the built-in translator;
language_model.py: the built-in language model, SmolLM2),
and one registry (registry.py) from the name a link carries to the source.

Pages and attention/ui/ ask a source what it is (`home`, `predicts`, `whole_words`) and what it
computes (`load`, `run`, `head_effects`, `ablated`, `origin`); they never compare its name. The layer
may import the package, trace, core, analysis, capture and translator; importing it loads neither
torch nor transformers (each back end imports its own lazily).
"""

from attention.sources.base import Output, Source
from attention.sources.registry import DEFAULT, SMOLLM2, TRANSLATOR, get, names

__all__ = ["DEFAULT", "SMOLLM2", "TRANSLATOR", "Output", "Source", "get", "names"]
