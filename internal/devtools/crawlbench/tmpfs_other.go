//go:build !linux

package main

// onTmpfs reports false: only Linux is asked.
func onTmpfs(string) bool { return false }

// lowerPeak does nothing here: only Linux lets a process lower its peak.
func lowerPeak() {}
