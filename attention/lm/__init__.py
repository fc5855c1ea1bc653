"""Language models that write: the built-in SmolLM2, any causal LM folder, next-token steps with the KV
cache, each step's attention rows recorded (imports torch and transformers lazily, package, trace, core,
analysis and capture; never Streamlit)."""
