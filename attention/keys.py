"""Every session-state key the app uses, as names only (no Streamlit): ui/state.py keeps the values
under them; the lesson names them in the links its steps carry."""


class Keys:
    """Every session-state key the app uses (widget keys included)."""

    LANG = "lang"
    IMAGE_FORMAT = "image_format"
    CVD_COLOURS = "cvd_colours"  # colour-blind-safe scales in the head view (sidebar; every link carries it)
    MODEL_PATH = "model_path"
    MERGE_WORDS = "merge_words"
    # Explore (and Find heads, which ranks Explore's sentence)
    TEXT = "text"
    KIND = "kind"
    LAYER = "layer"
    HEAD = "head"
    LONG_ROWS = "long_rows"  # the long head view (ui/head_view/long_view.py): the query position typed in
    LONG_KEYS = "long_keys"  # and the key position
    LONG_TILE = "long_tile:"  # + the view's key: the exact tile it shows, (r0, r1, c0, c1)
    LONG_SEL = "long_sel:"  # + the view's key: its selection where the page keeps none (Write)
    LONG_GOTO = "long_goto"  # a position was typed in: the view moves there, exact
    SEL_Q, SEL_K = "sel_q", "sel_k"
    EXPLAIN_TAB = "explore_tab"
    # Translate
    TR_TEXT = "tr_text"
    TR_KIND = "tr_kind"
    TR_LAYER = "tr_layer"
    TR_HEAD = "tr_head"
    TR_SEL_Q, TR_SEL_K = "sel_tr_q", "sel_tr_k"
    TR_EXPLAIN_TAB = "tr_tab"
    TR_WRITES = "tr_writes"  # What each head writes is open on Translate (attention/translator/decoder_parts.py)
    TR_WRITES_POS = "tr_writes_pos"  # … at this decoder position (0 reads <bos>)
    # Learning
    LEARN_TEXT = "learn_text"
    LEARN_KIND = "learn_kind"
    LEARN_LAYER = "learn_layer"
    LEARN_HEAD = "learn_head"
    LEARN_STEP = "learn_step"
    LEARN_ROLES = "learn_roles"  # the roles-over-training section is open (measuring every snapshot starts then)
    LEARN_PLAYING = "learn_playing"  # ▶ Play is running: the timeline fragment advances one step per tick
    LEARN_PLAY_FRESH = "learn_play_fresh"  # the run right after ▶ shows the first step before advancing
    LEARN_TICK = "learn_tick"  # counts Play's ticks: each draws a new step slider (see views/learning.py)
    LEARN_SEL_Q, LEARN_SEL_K = "sel_learn_q", "sel_learn_k"
    # Find heads
    REL_QUERY = "rel_query"
    REL_KEY = "rel_key"
    REL_BY = "rel_by"
    # Overview
    OV_SOURCE = "overview_source"
    OV_KIND = "overview_kind"
    OV_ORDER = "overview_order"
    OV_ASCENDING = "overview_ascending"
    OV_WORD = "overview_word"
    OV_GRID = "overview_grid"  # the grid chart (its click event)
    OV_ROLLOUT = "overview_rollout"  # the rollout chart (its click event)
    OV_ROLES = "overview_roles"  # the Head roles section is open (measuring starts only then)
    OV_ROLES_MODEL = "overview_roles_model"  # "model" (the pretrained one) or "smollm2"
    OV_ROLES_KIND = "overview_roles_kind"  # the translator's kind of attention the roles are measured on
    OV_ROLE = "overview_role"  # the role the grid is coloured by
    OV_ATLAS = "overview_atlas"  # the atlas section is open (reading the corpus starts only then)
    OV_ATLAS_MODEL = "overview_atlas_model"  # "model" (the page's) or "smollm2"
    OV_ATLAS_CORPUS = "overview_atlas_corpus"  # "builtin" or "own"
    OV_ATLAS_TEXT = "overview_atlas_text"  # the person's own text, pasted
    OV_ATLAS_FILE = "overview_atlas_file"  # … or uploaded as .txt
    OV_ATLAS_LAYER = "overview_atlas_layer"  # the head chosen in the atlas
    OV_ATLAS_HEAD = "overview_atlas_head"
    OV_ATLAS_GRID = "overview_atlas_grid"  # the atlas grid chart (its click event)
    # Does it matter? (ablation, value-weighted attention, attribution)
    ABL_SOURCE = "abl_source"  # "translator" or "model"
    ABL_HEADS = "abl_heads"  # the heads switched off, "cross.1.2,encoder.0.3"
    ABL_MODE = "abl_mode"  # "zero" or "mean"
    ABL_WORD = "abl_word"  # the translator's output position attributed
    ABL_GRID = "abl_grid"  # prefix of the head grid's per-row widgets: abl_grid_<kind>_<layer>
    VALUE_WEIGHTED = "value_weighted"  # draw ‖α·v‖ beside A (Explore, Translate)
    # Lesson (its own sentences, head and pair: the full pages' views change only when a link is followed)
    LESSON_STEP = "lesson_step"  # 0-based; the last is the score and the printable summary
    LESSON_TEXT = "lesson_text"  # read by the pretrained model (and the translator's training snapshots)
    LESSON_TR_TEXT = "lesson_tr_text"  # translated by the built-in translator
    LESSON_LAYER = "lesson_layer"
    LESSON_HEAD = "lesson_head"
    LESSON_SEL_Q, LESSON_SEL_K = "sel_lesson_q", "sel_lesson_k"
    LESSON_TEMPERATURE = "lesson_temperature"
    LESSON_ANSWERS = "lesson_answers"  # prediction id|context -> (chosen, right): the session's score
    LESSON_RETURN = "lesson_return"  # the lesson step a full page was opened from: that page offers a way back
    # Write (the built-in language model writing word by word)
    WR_PROMPT = "wr_prompt"
    WR_TEMPERATURE = "wr_temperature"
    WR_TOP_K = "wr_top_k"  # 0: off
    WR_TOP_P = "wr_top_p"  # 1.0: off
    WR_SAMPLED = "wr_sampled"  # False: the likeliest token; True: drawn with WR_SEED
    WR_SEED = "wr_seed"
    WR_IDS = "wr_ids"  # the written token ids, "12,873,5": the link rewrites them in a fresh browser
    WR_STEP = "wr_step"  # the step shown (0: the prompt alone); clicking a written word sets it
    WR_LAYER = "wr_layer"
    WR_HEAD = "wr_head"
    WR_WRITING = "wr_writing"  # this session's Writing (attention/lm/writer.py) and what it was made from
    WR_PLAYING = "wr_playing"  # ▶ Play is on: a ticking fragment writes one word per tick
    HV_SENT = "hv_sent_"  # + a head view's key: the ids of the blocks its browser was sent (ui/head_view/head_component.py)
    WR_WHY = "wr_why"  # Why this word: the last answer (attention/lm/why.py) and the step and token it is for
    WR_WRITES = "wr_writes"  # What each head writes is open (attention/lm/head_writes.py; one forward pass a word)
    WR_WRITES_TOKEN = "wr_writes_token"  # the token id whose logit is split into heads
    WR_WRITES_VS = "wr_writes_vs"  # … rather than this token id (−1: none): a logit difference
    WR_WRITES_ANSWER = "wr_writes_answer"  # the last answer and the (ids, token, vs) it is for
    WR_WRITES_GRID = "wr_writes_grid"  # the grid chart (its click event)
    # Compare (change one word: two sentences through one model)
    CMP_A = "cmp_a"
    CMP_B = "cmp_b"
    CMP_MODEL = "cmp_model"  # a source's name: "minilm", "translator", "smollm2" or a model folder
    CMP_MEASURE = "cmp_measure"  # "js" or "max_abs": what the grid shows
    CMP_KIND = "cmp_kind"
    CMP_LAYER = "cmp_layer"
    CMP_HEAD = "cmp_head"
    CMP_PATCH = "cmp_patch"  # patching was asked for (the link reopens it, from the cache when kept)
    CMP_GRID = "cmp_grid"  # the grid chart (its click event)
    # Forget (a KV cache that evicts keys: attention/lm/evict.py)
    FG_PROMPT = "fg_prompt"
    FG_POLICY = "fg_policy"  # one of evict_policies.POLICIES
    FG_BUDGET = "fg_budget"  # keys a written word's query sees
    FG_SINKS = "fg_sinks"  # streaming's first tokens always kept
    FG_WORDS = "fg_words"  # words written (the link rewrites them: greedy, so the same words)
    FG_LAYER = "fg_layer"  # the layer whose newest row is drawn
    FG_RUNS = "fg_runs"  # this session's Evictions (the policy's and window's) and what they were made from
    # Find the needle (retrieval heads: attention/lm/needle.py)
    ND_NEEDLE = "nd_needle"  # the fact hidden in the haystack
    ND_QUESTION = "nd_question"
    ND_ANSWER = "nd_answer"  # the words a right answer holds
    ND_HAYSTACK = "nd_haystack"  # a person's own filler ("" : the built-in one)
    ND_LENGTH = "nd_length"  # the prompt's tokens
    ND_DEPTH = "nd_depth"  # where the needle goes, 0..1
    ND_HEAD = "nd_head"  # the head drawn over the written tokens, "layer.head"
    ND_BUDGET = "nd_budget"  # keys a written query sees in the forgetting comparison
    ND_GO = "nd_go"  # the needle was asked for (the button, or a link that names go=1): runs cost seconds
    ND_RUN = "nd_run"  # this session's NeedleRun and what it was made from
    ND_GRID = "nd_grid"  # this session's RetrievalGrid
    ND_PROOF = "nd_proof"  # this session's NeedleProof and the run it was made for
    ND_FORGET = "nd_forget"  # this session's forgetting comparison (NeedleRuns) and the run it was made for
