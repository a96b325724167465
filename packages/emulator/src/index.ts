// The emulated ADB server arrives with issue 4.
export {}
