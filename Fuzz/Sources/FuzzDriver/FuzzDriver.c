#include <stddef.h>
#include <stdint.h>

// SwiftPM links an executable target with `main` aliased to `<Module>_main` (so tests can link
// it), which leaves libFuzzer's own `main` out. This supplies that symbol and hands control to
// libFuzzer's driver, which calls LLVMFuzzerTestOneInput (defined in Swift with @_cdecl).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int MeshFuzz_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
