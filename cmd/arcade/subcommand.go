package main

import (
	"flag"
)

// dataFlag defines the --data flag of a subcommand on fs: the server's data folder, from
// ARCADE_DATA by default, else ./arcade-data.
func dataFlag(fs *flag.FlagSet, getenv func(string) string, usage string) *string {
	data := getenv("ARCADE_DATA")
	if data == "" {
		data = "./arcade-data"
	}
	return fs.String("data", data, usage)
}

// parseNames parses args with fs, flags before or after the names (`backup FILE --data DIR`), and
// returns the names; after "--" everything is a name.
func parseNames(fs *flag.FlagSet, args []string) ([]string, error) {
	var names []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return names, nil
		}
		if used := len(args) - fs.NArg(); used > 0 && args[used-1] == "--" {
			return append(names, fs.Args()...), nil
		}
		names = append(names, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
