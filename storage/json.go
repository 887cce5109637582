package storage

import "encoding/json"

// jsonUnmarshal decodes a value read inside a transaction; decoding copies what it keeps.
func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
