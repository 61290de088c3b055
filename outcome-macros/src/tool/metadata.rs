//! `<method>_tool_attr()`: the `Tool` value rmcp's router lists for the
//! method, built as rmcp's `#[tool]` builds it, from the signature and the
//! arguments alone.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{FnArg, GenericArgument, PathArguments, ReturnType, Type};

use super::parse::{Annotations, Description, ToolArgs, ToolFn};

/// The tool's name on the wire: `name = ".."`, else the method's name.
pub(crate) fn wire_name(function: &ToolFn, args: &ToolArgs) -> String {
    args.name
        .as_ref()
        .map_or_else(|| function.sig.ident.to_string(), syn::LitStr::value)
}

/// The associated function rmcp's router calls for the tool's metadata.
pub(crate) fn tool_attr(
    function: &ToolFn,
    args: &ToolArgs,
    description: &Description,
) -> TokenStream {
    let private = crate::private(Span::call_site());
    let rmcp = quote! { #private::rmcp };
    let name = wire_name(function, args);
    let description = match description {
        Description::Text { text, .. } => quote! { ::core::option::Option::Some(#text.into()) },
        Description::Expr(expr) => quote! { ::core::option::Option::Some((#expr).into()) },
        Description::Computed(whole) => quote! { ::core::option::Option::Some(#whole.into()) },
        Description::Missing => quote! { ::core::option::Option::None },
    };
    let input_schema = match (&args.input_schema, parameters_type(function)) {
        (Some(schema), _) => quote! { #schema },
        (None, Some(parameters)) => quote! { #private::input_schema::<#parameters>() },
        (None, None) => quote! { #rmcp::handler::server::common::schema_for_empty_input() },
    };
    let title = args
        .title
        .as_ref()
        .map(|title| quote! { .with_title(#title) });
    let output_schema = match (&args.output_schema, json_output(&function.sig.output)) {
        (Some(schema), _) => Some(quote! { .with_raw_output_schema(#schema) }),
        (None, Some(output)) => Some(quote! {
            .with_raw_output_schema(#rmcp::handler::server::tool::schema_for_output::<#output>())
        }),
        (None, None) => None,
    };
    let annotations = args.annotations.as_ref().map(|annotations| {
        let annotations = annotations_value(annotations, &rmcp);
        quote! { .with_annotations(#annotations) }
    });
    let icons = args
        .icons
        .as_ref()
        .map(|icons| quote! { .with_icons(#icons) });
    let meta = args.meta.as_ref().map(|meta| quote! { .with_meta(#meta) });
    let function_name = super::metadata_fn(&function.sig.ident);
    let doc = format!(
        "The metadata `tools/list` sends for the tool `{name}` ([`Self::{}`]).",
        function.sig.ident
    );
    quote! {
        #[doc = #doc]
        pub fn #function_name() -> #rmcp::model::Tool {
            #rmcp::model::Tool::new_with_raw(#name, #description, #input_schema)
                #title
                #output_schema
                #annotations
                #icons
                #meta
        }
    }
}

/// `ToolAnnotations` with the hints given and the others unset.
fn annotations_value(annotations: &Annotations, rmcp: &TokenStream) -> TokenStream {
    let some = |value: Option<TokenStream>| match value {
        Some(value) => quote! { ::core::option::Option::Some(#value) },
        None => quote! { ::core::option::Option::None },
    };
    let title = some(
        annotations
            .title
            .as_ref()
            .map(|title| quote! { #title.into() }),
    );
    let hint = |hint: Option<bool>| some(hint.map(|hint| quote! { #hint }));
    let read_only = hint(annotations.read_only_hint);
    let destructive = hint(annotations.destructive_hint);
    let idempotent = hint(annotations.idempotent_hint);
    let open_world = hint(annotations.open_world_hint);
    quote! {
        #rmcp::model::ToolAnnotations::from_raw(
            #title, #read_only, #destructive, #idempotent, #open_world,
        )
    }
}

/// The type of the first parameter written `Parameters<T>` (by any path
/// ending in `Parameters`), whose schema is the tool's input schema.
fn parameters_type(function: &ToolFn) -> Option<&Type> {
    function.sig.inputs.iter().find_map(|input| match input {
        FnArg::Typed(typed) => match &*typed.ty {
            Type::Path(path)
                if path
                    .path
                    .segments
                    .last()
                    .is_some_and(|last| last.ident == "Parameters") =>
            {
                Some(&*typed.ty)
            }
            _ => None,
        },
        FnArg::Receiver(_) => None,
    })
}

/// `T` of a return type written `Json<T>` or `Result<Json<T>, E>`, whose
/// schema is the tool's output schema.
fn json_output(output: &ReturnType) -> Option<&Type> {
    let ReturnType::Type(_, ty) = output else {
        return None;
    };
    first_type_argument(ty, "Json").or_else(|| {
        first_type_argument(ty, "Result").and_then(|ok| first_type_argument(ok, "Json"))
    })
}

/// The first type argument of a path type whose last segment is `name`.
fn first_type_argument<'a>(ty: &'a Type, name: &str) -> Option<&'a Type> {
    let Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    if last.ident != name {
        return None;
    }
    let PathArguments::AngleBracketed(arguments) = &last.arguments else {
        return None;
    };
    match arguments.args.first()? {
        GenericArgument::Type(ty) => Some(ty),
        _ => None,
    }
}
