//! The net file: a header that names the architecture, the quantised weights, and a content
//! hash, all little-endian.
//!
//! | bytes | what |
//! |---|---|
//! | 8 | magic `CHARNNUE` |
//! | 4 | version (1) |
//! | 4 | architecture hash (FNV-1a of [`ARCHITECTURE`], [`LAYER2`], [`OUTPUT_HEADS`]) |
//! | 4 | features (`KING_BUCKETS` × 1,260) |
//! | 4 | accumulator width (`HIDDEN`) |
//! | 2·F·H | feature weights, `i16`, feature-major |
//! | 2·H | feature biases, `i16` |
//! | 2·L·2H | second-layer weights, `i16`, neuron-major (`L2` = L; none when 0) |
//! | 2·B·I | output weights, `i16`, per head (`OUTPUT_BUCKETS` = B; I = L, or 2H without a second layer: side to move's half first) |
//! | 4·L | second-layer biases, `i32` |
//! | 4·B | output biases, `i32` |
//! | 8 | FNV-1a 64 of every byte before it |
//!
//! Reading checks each field and the hash, so a truncated, corrupt or foreign file is
//! refused with a message that says which; the engine then keeps the net it had. One
//! exception to "one architecture a build": a build with output heads also reads a net of
//! its shape with a single head (the nets before the heads), by giving every head that one
//! head's weights, which scores exactly as a one-head build does. So older nets stay
//! playable for comparisons and users without a build of their own.

use super::{
    FEATURES, HEAD_INPUTS, HIDDEN, KING_BUCKETS, L2, Network, OUTPUT_BUCKETS, hidden_width,
    king_buckets, layer2_width, output_buckets,
};

pub const MAGIC: &[u8; 8] = b"CHARNNUE";
pub const VERSION: u32 = 1;
/// What the architecture hash covers: inputs, width, activation, output, quantisation.
pub const ARCHITECTURE: &str = if KING_BUCKETS == 1 {
    concat!(
        "chariot-nnue: 2x(1260 rel-colour x kind x point, black flips ranks) -> ",
        hidden_width!(),
        " i16, screlu QA 255, out 2x",
        hidden_width!(),
        " QB 64 + bias, scale 400"
    )
} else {
    concat!(
        "chariot-nnue: 2x(",
        king_buckets!(),
        " own-king buckets (rank x middle file, right file mirrored) x 1260 rel-colour x kind \
         x point, black flips ranks) -> ",
        hidden_width!(),
        " i16, screlu QA 255, out 2x",
        hidden_width!(),
        " QB 64 + bias, scale 400"
    )
};

/// What the architecture hash covers after [`ARCHITECTURE`]: the output heads (nothing for
/// one head, so that one-head nets keep the hash they were written with).
pub const OUTPUT_HEADS: &str = if OUTPUT_BUCKETS == 1 {
    ""
} else {
    concat!(
        ", ",
        output_buckets!(),
        " output heads by pieces on the board ((pieces - 1) x heads / 32)"
    )
};

/// What the architecture hash covers after [`ARCHITECTURE`]: the second layer (nothing
/// without one, so that older nets keep the hash they were written with).
pub const LAYER2: &str = if L2 == 0 {
    ""
} else {
    concat!(
        ", second layer ",
        layer2_width!(),
        " over both activations (clamp(x)^2 / QA), Q2 64, clipped at 1"
    )
};

/// FNV-1a, 64 bits.
pub fn fnv64(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The architecture hash a file must carry.
pub fn architecture_hash() -> u32 {
    hash_of(OUTPUT_HEADS)
}

/// The architecture hash of this build's shape with a single output head, which it also
/// reads (see the module notes); the same as [`architecture_hash`] in a one-head build.
pub fn one_head_hash() -> u32 {
    hash_of("")
}

fn hash_of(output_heads: &str) -> u32 {
    let text = [
        ARCHITECTURE.as_bytes(),
        LAYER2.as_bytes(),
        output_heads.as_bytes(),
    ]
    .concat();
    let h = fnv64(&text);
    (h ^ (h >> 32)) as u32
}

const HEADER: usize = 8 + 4 * 4;

/// The exact size of a file of this architecture.
pub const fn file_size() -> usize {
    file_size_with(OUTPUT_BUCKETS)
}

/// The exact size of a file of this shape with `heads` output heads.
const fn file_size_with(heads: usize) -> usize {
    HEADER
        + 2 * FEATURES * HIDDEN
        + 2 * HIDDEN
        + L2 * (2 * 2 * HIDDEN + 4)
        + heads * (2 * HEAD_INPUTS + 4)
        + 8
}

/// Serialises a network (its `hash` field is ignored: the file's hash is computed).
pub fn write(net: &Network) -> Vec<u8> {
    let mut out = Vec::with_capacity(file_size());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&architecture_hash().to_le_bytes());
    out.extend_from_slice(&(FEATURES as u32).to_le_bytes());
    out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
    for w in net
        .feature_weights
        .iter()
        .chain(&net.feature_bias)
        .chain(&net.layer2_weights)
        .chain(&net.output_weights)
    {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for b in net.layer2_bias.iter().chain(&net.output_bias) {
        out.extend_from_slice(&b.to_le_bytes());
    }
    let hash = fnv64(&out);
    out.extend_from_slice(&hash.to_le_bytes());
    out
}

/// Parses a net file; says what is wrong with one it refuses.
pub fn read(bytes: &[u8]) -> Result<Network, String> {
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err("not a Chariot net file (no CHARNNUE magic)".into());
    }
    if u32_at(8) != VERSION {
        return Err(format!(
            "net file version {}, this build reads version {VERSION}",
            u32_at(8)
        ));
    }
    let heads = if u32_at(12) == architecture_hash() {
        OUTPUT_BUCKETS
    } else if u32_at(12) == one_head_hash() {
        1
    } else {
        0
    };
    if heads == 0 || u32_at(16) as usize != FEATURES {
        return Err(format!(
            "the net's architecture ({:08x}, {} features × {}) is not this build's ({:08x}, \
             {FEATURES} × {HIDDEN}, {} second-layer neurons, {OUTPUT_BUCKETS} output \
             head{}, or one): a net of another shape must be trained for this build",
            u32_at(12),
            u32_at(16),
            u32_at(20),
            architecture_hash(),
            L2,
            if OUTPUT_BUCKETS == 1 { "" } else { "s" }
        ));
    }
    if u32_at(20) as usize != HIDDEN {
        return Err(format!(
            "the net is {} wide, this build's architecture is {HIDDEN} wide",
            u32_at(20)
        ));
    }
    if bytes.len() != file_size_with(heads) {
        return Err(format!(
            "the net file has {} bytes, expected {} (truncated or padded)",
            bytes.len(),
            file_size_with(heads)
        ));
    }
    let body = &bytes[..bytes.len() - 8];
    let stored = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"));
    let hash = fnv64(body);
    if stored != hash {
        return Err(format!(
            "the net's content hash does not match ({stored:016x} stored, {hash:016x} \
             computed): the file is corrupt"
        ));
    }
    let mut words = body[HEADER..]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]));
    let mut take = |n: usize| -> Vec<i16> { words.by_ref().take(n).collect() };
    let feature_weights = take(FEATURES * HIDDEN);
    let feature_bias = take(HIDDEN);
    let layer2_weights = take(L2 * 2 * HIDDEN);
    // A one-head net in a build with heads: every head gets the one head's weights.
    let output_weights = take(heads * HEAD_INPUTS).repeat(OUTPUT_BUCKETS / heads);
    let mut ints = body[body.len() - 4 * (L2 + heads)..]
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")));
    let layer2_bias = ints.by_ref().take(L2).collect();
    let output_bias = ints.collect::<Vec<_>>().repeat(OUTPUT_BUCKETS / heads);
    Ok(Network {
        feature_weights,
        feature_bias,
        layer2_weights,
        layer2_bias,
        output_weights,
        output_bias,
        hash,
    })
}

/// Reads a net file from disk.
pub fn load(path: &std::path::Path) -> Result<Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    read(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_round_trip_and_damage_is_refused() {
        let bytes = super::super::EMBEDDED_BYTES;
        let net = read(bytes).unwrap();
        assert_eq!(write(&net), bytes);
        assert!(
            read(&bytes[..bytes.len() - 1])
                .unwrap_err()
                .contains("truncated")
        );
        let mut flipped = bytes.to_vec();
        flipped[HEADER + 100] ^= 1;
        assert!(read(&flipped).unwrap_err().contains("corrupt"));
        let mut other = bytes.to_vec();
        other[12] ^= 1;
        assert!(read(&other).unwrap_err().contains("architecture"));
        assert!(read(b"hello").unwrap_err().contains("not a Chariot net"));
    }

    /// A file of this shape with only the given head of `net` (as a one-head build writes it).
    fn one_head_file(net: &Network, head: usize) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&one_head_hash().to_le_bytes());
        out.extend_from_slice(&(FEATURES as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let weights = &net.output_weights[head * HEAD_INPUTS..(head + 1) * HEAD_INPUTS];
        for w in net
            .feature_weights
            .iter()
            .chain(&net.feature_bias)
            .chain(&net.layer2_weights)
            .chain(weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in net.layer2_bias.iter().chain(&net.output_bias[head..=head]) {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let hash = fnv64(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    #[test]
    fn a_one_head_net_gives_every_head_its_weights() {
        let net = read(super::super::EMBEDDED_BYTES).unwrap();
        let head = OUTPUT_BUCKETS - 1;
        let bytes = one_head_file(&net, head);
        let one = read(&bytes).unwrap();
        assert_eq!(one.feature_weights, net.feature_weights);
        assert_eq!(one.layer2_weights, net.layer2_weights);
        assert_eq!(one.output_weights.len(), net.output_weights.len());
        for h in 0..OUTPUT_BUCKETS {
            assert_eq!(
                one.output_weights[h * HEAD_INPUTS..(h + 1) * HEAD_INPUTS],
                net.output_weights[head * HEAD_INPUTS..(head + 1) * HEAD_INPUTS]
            );
            assert_eq!(one.output_bias[h], net.output_bias[head]);
        }
        // Damage to a one-head file is refused like any other.
        assert!(
            read(&bytes[..bytes.len() - 2])
                .unwrap_err()
                .contains("truncated")
        );
        let mut flipped = bytes.clone();
        flipped[bytes.len() - 20] ^= 1;
        assert!(read(&flipped).unwrap_err().contains("corrupt"));
    }
}
