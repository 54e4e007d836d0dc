//! The private memory one invocation of a kernel needs, read from naga's IR: the `var<private>` globals its
//! entry point reaches and the function-local variables of every function it reaches, sized by naga's layouter.
//! On a GPU that is per-lane storage (registers, or local memory with per-lane addresses when it outgrows
//! them), so it is the figure to keep small.

use wgpu::naga;

/// Bytes of private memory per invocation of `entry` in the WGSL `source`: the `var<private>` globals the entry
/// point or a function it calls uses, plus every reachable function's local variables (as if each call were
/// inlined, as GPU compilers do).
pub fn private_bytes(source: &str, entry: &str) -> Result<u64, String> {
    let module = naga::front::wgsl::parse_str(source).map_err(|e| e.emit_to_string(source))?;
    let mut layouter = naga::proc::Layouter::default();
    layouter
        .update(module.to_ctx())
        .map_err(|e| format!("naga layouter: {e}"))?;
    let entry_point = module
        .entry_points
        .iter()
        .find(|e| e.name == entry)
        .ok_or_else(|| format!("no entry point `{entry}`"))?;
    let mut reached = Vec::new();
    let mut pending = Vec::new();
    calls(&entry_point.function.body, &mut pending);
    while let Some(f) = pending.pop() {
        if !reached.contains(&f) {
            reached.push(f);
            calls(&module.functions[f].body, &mut pending);
        }
    }
    let functions =
        std::iter::once(&entry_point.function).chain(reached.iter().map(|&f| &module.functions[f]));
    let mut globals = Vec::new();
    let mut bytes = 0u64;
    for function in functions {
        bytes += function
            .local_variables
            .iter()
            .map(|(_, v)| u64::from(layouter[v.ty].size))
            .sum::<u64>();
        for (_, expression) in function.expressions.iter() {
            if let naga::Expression::GlobalVariable(g) = *expression {
                if module.global_variables[g].space == naga::AddressSpace::Private
                    && !globals.contains(&g)
                {
                    globals.push(g);
                }
            }
        }
    }
    bytes += globals
        .iter()
        .map(|&g| u64::from(layouter[module.global_variables[g].ty].size))
        .sum::<u64>();
    Ok(bytes)
}

/// The functions `block` calls, nested blocks included.
fn calls(block: &naga::Block, out: &mut Vec<naga::Handle<naga::Function>>) {
    for statement in block.iter() {
        match statement {
            naga::Statement::Call { function, .. } => out.push(*function),
            naga::Statement::Block(inner) => calls(inner, out),
            naga::Statement::If { accept, reject, .. } => {
                calls(accept, out);
                calls(reject, out);
            }
            naga::Statement::Switch { cases, .. } => {
                for case in cases {
                    calls(&case.body, out);
                }
            }
            naga::Statement::Loop {
                body, continuing, ..
            } => {
                calls(body, out);
                calls(continuing, out);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::EpaKernel;

    #[test]
    fn counts_reached_private_globals_and_locals_only() {
        let source = "
            var<private> used: array<vec4<f32>, 4>;
            var<private> unused: array<f32, 100>;
            fn helper() -> f32 { var local: vec3<f32>; local.x = used[1].x; return local.x; }
            @compute @workgroup_size(1) fn main() { var x: u32 = 1u; let y = helper(); }
        ";
        assert_eq!(private_bytes(source, "main"), Ok(64 + 12 + 4));
        assert!(private_bytes(source, "other").is_err());
    }

    /// The EPA pass's polytope must not live per lane on a GPU: at most 1 KB of private memory per invocation of
    /// the scratch kernel, which hardware adapters run (the private kernel, which software adapters run, needs
    /// about 5.7 KB).
    #[test]
    fn epa_entry_point_private_memory_is_at_most_one_kilobyte() {
        for kernel in EpaKernel::ALL {
            println!(
                "EPA private bytes per invocation, {} kernel: {}",
                kernel.name(),
                kernel.private_bytes_per_invocation()
            );
        }
        let bytes = EpaKernel::Scratch.private_bytes_per_invocation();
        assert!(
            bytes <= 1024,
            "penetration_epa: {bytes} private bytes per invocation"
        );
        assert!(EpaKernel::Private.private_bytes_per_invocation() > 4 * 1024);
    }
}
