"""Pure renderers: data in, text out. Colour only on a TTY; machine formats never carry ANSI."""
