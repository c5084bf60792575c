// The app has no code worth the name: the build checks its manifests.
print("Hello from GreeterApp")
