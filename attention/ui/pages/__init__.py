"""Per-page glue: each page's state and sections that are too large for its file in views/ (Write, Forget,
Compare, the Lesson, the Overview's sections, Learning's roles). A page part may use every other part of ui/;
nothing below imports a page part."""
