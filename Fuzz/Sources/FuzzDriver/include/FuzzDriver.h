// Nothing to import: this target only supplies the executable's entry point (see FuzzDriver.c).
