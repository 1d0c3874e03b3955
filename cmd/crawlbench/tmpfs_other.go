//go:build !linux

package main

// onTmpfs reports false: only Linux is asked.
func onTmpfs(string) bool { return false }
