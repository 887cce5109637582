// Package cluster runs an arcade node as one of several that share rooms, players and
// leaderboards through NATS JetStream (docs/architecture.md, "Several nodes").
//
// The history is one JetStream stream, ARCADE: every write of the store (a match's start, move,
// seat change, takeback and end; a name bound to a key; a player's bell) is a storage.Change
// published on it, and every node applies the stream, in its order, to a bbolt file of its own
// (storage.DB.Apply). Ratings are computed there from the match ends in the stream's order, so
// leaderboards, profiles and replays are the same on every node, and any node's file is a backup
// of the whole store. A move is acknowledged to its players only once JetStream has stored it:
// each room publishes on a subject of its own with the expected last sequence of that subject,
// so a retry never doubles a move and a node that lost a room to another can no longer write to
// it.
//
// The stream does not keep the whole history: nodes copy their replicas, with the position each
// holds, into the object store arcade_snapshots (snapshot.go), and the stream is then trimmed
// behind the newest snapshot (retention.go): the subjects of closed rooms go, a room still open
// keeps its last change (its fence). A node whose replica is empty, or lacks changes the stream no
// longer holds, restores the newest snapshot and follows the stream from there; a replica never
// skips a change: a gap that no snapshot covers stops it (ErrStreamGone).
//
// Names are bound with a create-if-absent in the key-value bucket arcade_names, so that a name
// binds to one key across the cluster. Rooms are listed in the bucket arcade_rooms (code ->
// hosting node and summary; a code is reserved there with a create-if-absent); nodes beat in
// arcade_nodes, whose entries lapse after a TTL. A room lives on the node that holds its entry;
// sessions on other nodes reach it over NATS (package cluster/remote). When a node is gone (no
// connection answers on its presence subject, or its beat lapsed), another node takes each of its
// rooms over with a compare-and-set on the room's entry and rebuilds the match from its replica
// of the stream, as a restart does. What a node knows of the directory and the other nodes is
// owned by one goroutine, as a room's state is by the room's. A node holds a room by an
// epoch, the revision of the directory write that named it the host: sessions reach the host the
// directory names (its name is in the requests' subjects), and a node that lost a room never
// writes it or opens it again unless a new epoch names it.
//
// Quick matches pair in one pool, the bucket arcade_quick (quick.go): a ticket per player waiting,
// paired by the rule of one hub with compare-and-set on the tickets, the room opened on the node
// of the longer waiting player.
package cluster
