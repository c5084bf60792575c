// The `patchbay` command: a thin face over the library's PatchbayCommandLine.
// Every check it runs is a library call that apps and tests can make too.
import PatchbayTools

PatchbayCommandLine().main()
