//! The writer's output read back: header, e_flags, section set per writer family, program
//! headers, and the `.text` contents and symbol. (A small reader of our own: like ptxas, the writer
//! leaves the header tables unaligned, which the `object` crate's zero-copy parser refuses.)

use ptxforge_cubin::{write_cubin, CubinModule, KernelImage, ParamInfo};
use ptxforge_sass::arch::{Sm, SUPPORTED_SMS};

/// EXIT, BRA to itself, then NOPs: 8 words as ptxas pads them (encodings from ptxas 13.5 output).
fn code() -> Vec<u8> {
    let mut words = vec![
        (0x000000000000794du64, 0x000fea0003800000u64),
        (0xfffffff000007947, 0x000fc0000383ffff),
    ];
    words.resize(8, (0x0000000000007918, 0x000fc00000000000));
    words
        .iter()
        .flat_map(|(lo, hi)| lo.to_le_bytes().into_iter().chain(hi.to_le_bytes()))
        .collect()
}

fn module(sm: Sm, shared_bytes: u32) -> CubinModule {
    let kernel = KernelImage {
        name: "k".into(),
        code: code(),
        params: vec![
            ParamInfo {
                offset: 0,
                size: 8,
                align: 8,
                ..ParamInfo::default()
            },
            ParamInfo {
                offset: 8,
                size: 4,
                align: 4,
                ..ParamInfo::default()
            },
        ],
        param_bytes: 12,
        num_gprs: 8,
        shared_bytes,
        exit_offsets: vec![0],
        ..KernelImage::default()
    };
    CubinModule {
        sm,
        virtual_sm: 75,
        ptx_version: (8, 0),
        address_size: 64,
        kernels: vec![kernel],
        globals: Vec::new(),
        consts: Vec::new(),
        extern_funcs: Vec::new(),
    }
}

fn u16_at(b: &[u8], o: usize) -> u64 {
    u16::from_le_bytes(b[o..o + 2].try_into().unwrap()) as u64
}
fn u32_at(b: &[u8], o: usize) -> u64 {
    u32::from_le_bytes(b[o..o + 4].try_into().unwrap()) as u64
}
fn u64_at(b: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(b[o..o + 8].try_into().unwrap())
}

/// Section headers as (name, type, offset, size, align).
fn sections(b: &[u8]) -> Vec<(String, u64, u64, u64, u64)> {
    let (shoff, shnum, shstrndx) = (
        u64_at(b, 0x28) as usize,
        u16_at(b, 0x3c) as usize,
        u16_at(b, 0x3e) as usize,
    );
    let hdr = |i: usize| shoff + 64 * i;
    let strtab = u64_at(b, hdr(shstrndx) + 24) as usize;
    (0..shnum)
        .map(|i| {
            let h = hdr(i);
            let name_off = strtab + u32_at(b, h) as usize;
            let end = b[name_off..].iter().position(|&c| c == 0).unwrap();
            let name = String::from_utf8_lossy(&b[name_off..name_off + end]).into_owned();
            (
                name,
                u32_at(b, h + 4),
                u64_at(b, h + 24),
                u64_at(b, h + 32),
                u64_at(b, h + 48),
            )
        })
        .collect()
}

/// The size of the symbol called `name` in `.symtab` (section 3, string table 2).
fn symbol_size(b: &[u8], secs: &[(String, u64, u64, u64, u64)], name: &str) -> Option<u64> {
    let (sym_off, sym_size) = (secs[3].2 as usize, secs[3].3 as usize);
    let str_off = secs[2].2 as usize;
    (0..sym_size / 24).map(|i| sym_off + 24 * i).find_map(|s| {
        let n = str_off + u32_at(b, s) as usize;
        let end = b[n..].iter().position(|&c| c == 0)?;
        (&b[n..n + end] == name.as_bytes()).then(|| u64_at(b, s + 16))
    })
}

#[test]
fn header_sections_and_symbols() {
    for sm in SUPPORTED_SMS {
        for shared in [0, 256] {
            let b = write_cubin(&module(sm, shared)).unwrap();
            assert_eq!(&b[..4], b"\x7fELF");
            assert_eq!(
                (b[4], b[7], b[8]),
                (2, 0x41, 8),
                "ELFCLASS64, OSABI CUDA, ABI 8"
            );
            assert_eq!(u16_at(&b, 0x12), 190);
            let flags = u32_at(&b, 0x30);
            assert_eq!((flags >> 8) & 0xff, sm.num as u64, "{sm}");
            let secs = sections(&b);
            let names: Vec<&str> = secs.iter().map(|s| s.0.as_str()).collect();
            let cuinfo = names.iter().position(|n| *n == ".note.nv.cuinfo").unwrap() as u64;
            assert_eq!(flags >> 24, cuinfo, "e_flags top byte is the cuinfo index");
            for want in [
                ".nv.info",
                ".nv.info.k",
                ".nv.constant0.k",
                ".text.k",
                ".nv.callgraph",
                ".debug_frame",
            ] {
                assert!(names.contains(&want), "{sm}: no {want} in {names:?}");
            }
            assert_eq!(names.contains(&".nv.compat"), sm.num >= 90);
            assert_eq!(names.contains(&".nv.shared.k"), shared > 0);
            let text = secs.iter().find(|s| s.0 == ".text.k").unwrap();
            assert_eq!(&b[text.2 as usize..(text.2 + text.3) as usize], &code()[..]);
            assert_eq!(text.4, 128);
            let c0 = secs.iter().find(|s| s.0 == ".nv.constant0.k").unwrap();
            assert_eq!(c0.3, (sm.param_base() + 12) as u64);
            assert_eq!(symbol_size(&b, &secs, "k"), Some(128));
            let want = if sm.num >= 90 {
                5
            } else if shared > 0 {
                4
            } else {
                3
            };
            assert_eq!(
                u16_at(&b, 0x38),
                want,
                "{sm} shared {shared}: program headers"
            );
            assert_eq!(
                u64_at(&b, 0x20),
                u64_at(&b, 0x28) + 64 * secs.len() as u64,
                "phdrs follow the section headers"
            );
        }
    }
}

#[test]
fn deterministic_and_rejects_what_it_cannot_write() {
    let m = module(Sm::new(80), 64);
    assert_eq!(write_cubin(&m).unwrap(), write_cubin(&m).unwrap());
    assert!(write_cubin(&module(Sm::new(87), 0)).is_err());
    let mut m32 = module(Sm::new(80), 0);
    m32.address_size = 32;
    assert!(write_cubin(&m32).is_err());
}

/// The EIATTR records of a `.nv.info` section, as (format, attribute, payload length).
fn records(info: &[u8]) -> Vec<(u8, u8, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < info.len() {
        let (fmt, attr) = (info[at], info[at + 1]);
        let len = match fmt {
            4 => u16_at(info, at + 2) as usize,
            _ => 2,
        };
        out.push((fmt, attr, len));
        at += if fmt == 4 { 4 + len } else { 4 };
    }
    assert_eq!(at, info.len(), "records overrun the section");
    out
}

#[test]
fn many_spill_accesses_keep_the_annotations_record_well_formed() {
    let mut m = module(Sm::new(80), 0);
    // More accesses than one 16-bit-sized record holds (a kernel that spills heavily).
    m.kernels[0].spill_offsets = (0..20_000).map(|n| 16 * n).collect();
    let b = write_cubin(&m).expect("cubin");
    let secs = sections(&b);
    let (_, _, off, size, _) = secs.iter().find(|s| s.0 == ".nv.info.k").unwrap().clone();
    let recs = records(&b[off as usize..(off + size) as usize]);
    let annotations: Vec<_> = recs.iter().filter(|r| r.1 == 0x55).collect();
    assert_eq!(annotations.len(), 1, "{recs:?}");
    assert_eq!(annotations[0].2, 8 * ((u16::MAX as usize) / 8));
}
