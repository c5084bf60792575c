print("patchbay: usage: patchbay check PATH...")
